/**
 * ApplicationsRepo on PostgreSQL (`applications`, migration 0019). The per-owner cap is settled in
 * one transaction under a lock on the owner (an advisory lock on a key derived from the owner's id,
 * in its own namespace): a concurrent creation waits, then counts what the first one inserted.
 */
import { type Application, ApplicationsErrors, ApplicationsRepo } from "@veche/applications"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as DecodedRows from "./internal/DecodedRows.ts"

const Row = Schema.Struct({
  id: Schema.BigInt,
  owner_id: Schema.BigInt,
  name: Schema.String,
  description: Schema.String,
  icon: Schema.NullOr(Schema.String),
  bot_public: Schema.Boolean,
  bot_require_code_grant: Schema.Boolean,
  flags: Schema.Int,
  redirect_uris: Schema.Array(Schema.String),
  bot_token_digest: Schema.NullOr(Schema.String),
  secret_digest: Schema.NullOr(Schema.String),
  created_at: Schema.Date
})

const toApplication = (row: typeof Row.Type): Application.Application => ({
  id: Snowflake.Snowflake.make(String(row.id)),
  ownerId: Snowflake.Snowflake.make(String(row.owner_id)),
  name: row.name,
  description: row.description,
  icon: row.icon,
  botPublic: row.bot_public,
  botRequireCodeGrant: row.bot_require_code_grant,
  flags: row.flags,
  redirectUris: row.redirect_uris,
  botTokenDigest: row.bot_token_digest,
  secretDigest: row.secret_digest,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

const COLUMNS =
  "id, owner_id, name, description, icon, bot_public, bot_require_code_grant, flags, redirect_uris, bot_token_digest, secret_digest, created_at"

export const layer: Layer.Layer<ApplicationsRepo.ApplicationsRepo, never, SqlClient.SqlClient> = Layer.effect(
  ApplicationsRepo.ApplicationsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const { many, one } = DecodedRows.of(Row, toApplication)
    const touched = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>) =>
      query.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    return ApplicationsRepo.ApplicationsRepo.of({
      insert: (application, limit) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`applications:${application.ownerId}`}, 0))`
              const [counted] = yield* sql<{ readonly n: number }>`
                SELECT count(*)::int AS n FROM applications WHERE owner_id = ${application.ownerId}`
              if ((counted?.n ?? 0) >= limit) return yield* new ApplicationsErrors.ApplicationLimitReached()
              yield* sql`
                INSERT INTO applications ${sql.insert({
                  id: application.id,
                  owner_id: application.ownerId,
                  name: application.name,
                  description: application.description,
                  icon: application.icon,
                  bot_public: application.botPublic,
                  bot_require_code_grant: application.botRequireCodeGrant,
                  flags: application.flags,
                  redirect_uris: JSON.stringify(application.redirectUris),
                  bot_token_digest: application.botTokenDigest,
                  secret_digest: application.secretDigest,
                  created_at: DateTime.toDateUtc(application.createdAt)
                })}`
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die)),
      findById: (id) => one(sql`SELECT ${columns} FROM applications WHERE id = ${id}`),
      listByOwner: (ownerId) => many(sql`SELECT ${columns} FROM applications WHERE owner_id = ${ownerId} ORDER BY id`),
      findByBotToken: (digest) => one(sql`SELECT ${columns} FROM applications WHERE bot_token_digest = ${digest}`),
      // the unique index on bot_token_digest, once per digest
      botsHoldingTokens: (digests) =>
        digests.length === 0
          ? Effect.succeed(new Map())
          : sql<{ readonly id: string; readonly digest: string }>`
              SELECT id::text AS id, bot_token_digest AS digest FROM applications
              WHERE ${sql.in("bot_token_digest", digests)}`.pipe(
              Effect.map((rows) => new Map(rows.map((row) => [row.digest, Snowflake.Snowflake.make(row.id)] as const))),
              Effect.orDie
            ),
      update: (id, changes) => {
        // Each column keeps its value unless the change names it (icon may be set to null).
        const keep = <A>(value: A | undefined, column: string, encode: (a: A) => unknown = (a) => a) =>
          value === undefined ? sql`${sql(column)}` : sql`${encode(value)}`
        return one(sql`
          UPDATE applications SET
            name = ${keep(changes.name, "name")},
            description = ${keep(changes.description, "description")},
            icon = ${keep(changes.icon, "icon")},
            bot_public = ${keep(changes.botPublic, "bot_public")},
            bot_require_code_grant = ${keep(changes.botRequireCodeGrant, "bot_require_code_grant")},
            flags = ${keep(changes.flags, "flags")},
            redirect_uris = ${keep(changes.redirectUris, "redirect_uris", (uris) => JSON.stringify(uris))}::jsonb
          WHERE id = ${id} RETURNING ${columns}`)
      },
      setBotToken: (id, digest) =>
        touched(sql`UPDATE applications SET bot_token_digest = ${digest} WHERE id = ${id} RETURNING id`),
      setSecret: (id, digest) =>
        touched(sql`UPDATE applications SET secret_digest = ${digest} WHERE id = ${id} RETURNING id`),
      remove: (id) => touched(sql`DELETE FROM applications WHERE id = ${id} RETURNING id`)
    })
  })
)
