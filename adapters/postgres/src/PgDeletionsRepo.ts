/**
 * DeletionsRepo on PostgreSQL (table `account_deletions`, migration 0010). State changes are
 * conditional UPDATEs, so of two workers (or a worker and a cancel) exactly one wins.
 */

import { Snowflake } from "@veche/platform"
import { Deletion, DeletionsRepo } from "@veche/privacy"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Row = Schema.Struct({
  user_id: Schema.BigInt,
  state: Deletion.State,
  requested_at: Schema.Date,
  delete_at: Schema.Date
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

const toDeletion = (row: typeof Row.Type): Deletion.Deletion => ({
  userId: Snowflake.Snowflake.make(String(row.user_id)),
  state: row.state,
  requestedAt: DateTime.fromDateUnsafe(row.requested_at),
  deleteAt: DateTime.fromDateUnsafe(row.delete_at)
})

export const layer: Layer.Layer<DeletionsRepo.DeletionsRepo, never, SqlClient.SqlClient> = Layer.effect(
  DeletionsRepo.DeletionsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const date = DateTime.toDateUtc
    const rows = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((found) => found.map(toDeletion)),
        Effect.orDie
      )
    const first = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      Effect.map(rows(query), (found) => Option.fromNullishOr(found[0]))

    return DeletionsRepo.DeletionsRepo.of({
      find: (userId) => first(sql`SELECT * FROM account_deletions WHERE user_id = ${userId}`),
      request: (deletion) =>
        // A pending row stays (the WHERE keeps it); anything else is replaced. RETURNING gives the
        // row as it now is either way (a no-op upsert returns nothing, so it is read back).
        Effect.flatMap(
          first(sql`
            INSERT INTO account_deletions ${sql.insert({
              user_id: deletion.userId,
              state: deletion.state,
              requested_at: date(deletion.requestedAt),
              delete_at: date(deletion.deleteAt)
            })}
            ON CONFLICT (user_id) DO UPDATE SET state = EXCLUDED.state, requested_at = EXCLUDED.requested_at,
              delete_at = EXCLUDED.delete_at
            WHERE account_deletions.state <> 'pending'
            RETURNING *`),
          Option.match({
            onSome: Effect.succeed,
            onNone: () =>
              Effect.map(first(sql`SELECT * FROM account_deletions WHERE user_id = ${deletion.userId}`), (found) =>
                Option.getOrElse(found, () => deletion)
              )
          })
        ),
      cancel: (userId) =>
        first(sql`UPDATE account_deletions SET state = 'cancelled'
                  WHERE user_id = ${userId} AND state = 'pending' RETURNING *`),
      due: (now, limit) =>
        rows(sql`SELECT * FROM account_deletions WHERE state = 'pending' AND delete_at <= ${date(now)}
                 ORDER BY delete_at LIMIT ${limit}`),
      nextDue: sql`SELECT min(delete_at) AS at FROM account_deletions WHERE state = 'pending'`.pipe(
        Effect.map((found) => {
          const at = (found[0] as { at: Date | null } | undefined)?.at ?? null
          return at === null ? Option.none() : Option.some(DateTime.fromDateUnsafe(at))
        }),
        Effect.orDie
      ),
      complete: (userId) =>
        sql`UPDATE account_deletions SET state = 'completed'
            WHERE user_id = ${userId} AND state = 'pending' RETURNING user_id`.pipe(
          Effect.map((found) => found.length > 0),
          Effect.orDie
        )
    })
  })
)
