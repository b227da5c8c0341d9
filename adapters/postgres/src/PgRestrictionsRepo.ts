/** RestrictionsRepo on PostgreSQL (table `account_restrictions`, migration 0015). */
import { RestrictionsRepo } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Row = Schema.Struct({
  user_id: Schema.BigInt,
  reason: Schema.String,
  until: Schema.NullOr(Schema.Date),
  restricted_by: Schema.NullOr(Schema.BigInt),
  created_at: Schema.Date
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toRestriction = (row: typeof Row.Type) => ({
  userId: Snowflake.Snowflake.make(String(row.user_id)),
  reason: row.reason,
  until: row.until === null ? null : DateTime.fromDateUnsafe(row.until),
  restrictedBy: row.restricted_by === null ? null : Snowflake.Snowflake.make(String(row.restricted_by)),
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

export const layer: Layer.Layer<RestrictionsRepo.RestrictionsRepo, never, SqlClient.SqlClient> = Layer.effect(
  RestrictionsRepo.RestrictionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return RestrictionsRepo.RestrictionsRepo.of({
      find: (userId) =>
        sql`
          SELECT user_id, reason, until, restricted_by, created_at
          FROM account_restrictions WHERE user_id = ${userId}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toRestriction)),
          Effect.orDie
        ),
      put: (restriction) =>
        sql`
          INSERT INTO account_restrictions ${sql.insert({
            user_id: restriction.userId,
            reason: restriction.reason,
            until: restriction.until === null ? null : DateTime.toDateUtc(restriction.until),
            restricted_by: restriction.restrictedBy,
            created_at: DateTime.toDateUtc(restriction.createdAt)
          })}
          ON CONFLICT (user_id) DO UPDATE SET reason = EXCLUDED.reason, until = EXCLUDED.until,
            restricted_by = EXCLUDED.restricted_by, created_at = EXCLUDED.created_at`.pipe(Effect.asVoid, Effect.orDie),
      remove: (userId) =>
        sql`DELETE FROM account_restrictions WHERE user_id = ${userId} RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
