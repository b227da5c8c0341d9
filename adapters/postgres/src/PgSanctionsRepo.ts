/**
 * SanctionsRepo on PostgreSQL: blocks in `account_blocks` (migration 0008; PgSessionsRepo joins it
 * in its one token lookup), restrictions in `account_restrictions` (migration 0015). The two tables
 * stay as they were: the same row shape, one per account each, only the staff column's name differs.
 */
import type { Sanction } from "@veche/moderation"
import { SanctionsRepo } from "@veche/moderation"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** Where each kind lives: its table and the column naming the staff member who set it. */
const TABLES: { readonly [K in Sanction.Kind]: { readonly table: string; readonly by: string } } = {
  block: { table: "account_blocks", by: "blocked_by" },
  restriction: { table: "account_restrictions", by: "restricted_by" }
}

const Row = Schema.Struct({
  user_id: Schema.BigInt,
  reason: Schema.String,
  until: Schema.NullOr(Schema.Date),
  by_id: Schema.NullOr(Schema.BigInt),
  created_at: Schema.Date
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toSanction =
  (kind: Sanction.Kind) =>
  (row: typeof Row.Type): Sanction.Sanction => ({
    userId: Snowflake.Snowflake.make(String(row.user_id)),
    kind,
    reason: row.reason,
    until: row.until === null ? null : DateTime.fromDateUnsafe(row.until),
    by: row.by_id === null ? null : Snowflake.Snowflake.make(String(row.by_id)),
    createdAt: DateTime.fromDateUnsafe(row.created_at)
  })

export const layer: Layer.Layer<SanctionsRepo.SanctionsRepo, never, SqlClient.SqlClient> = Layer.effect(
  SanctionsRepo.SanctionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return SanctionsRepo.SanctionsRepo.of({
      find: (userId, kind) => {
        const { by, table } = TABLES[kind]
        return sql`
          SELECT user_id, reason, until, ${sql(by)} AS by_id, created_at
          FROM ${sql(table)} WHERE user_id = ${userId}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toSanction(kind))),
          Effect.orDie
        )
      },
      put: (sanction) => {
        const { by, table } = TABLES[sanction.kind]
        return sql`
          INSERT INTO ${sql(table)} ${sql.insert({
            user_id: sanction.userId,
            reason: sanction.reason,
            until: sanction.until === null ? null : DateTime.toDateUtc(sanction.until),
            [by]: sanction.by,
            created_at: DateTime.toDateUtc(sanction.createdAt)
          })}
          ON CONFLICT (user_id) DO UPDATE SET reason = EXCLUDED.reason, until = EXCLUDED.until,
            ${sql(by)} = EXCLUDED.${sql(by)}, created_at = EXCLUDED.created_at`.pipe(Effect.asVoid, Effect.orDie)
      },
      remove: (userId, kind) =>
        sql`DELETE FROM ${sql(TABLES[kind].table)} WHERE user_id = ${userId} RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
