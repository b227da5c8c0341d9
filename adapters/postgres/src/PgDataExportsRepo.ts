/**
 * DataExportsRepo on PostgreSQL (table `data_exports`, migration 0011). The partial unique index
 * refuses a second preparing export; claims lease rows with `FOR UPDATE SKIP LOCKED`.
 */

import { Snowflake } from "@veche/platform"
import { DataExport, DataExportsRepo, PrivacyErrors } from "@veche/privacy"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const Row = Schema.Struct({
  id: Schema.BigInt,
  user_id: Schema.BigInt,
  state: DataExport.State,
  requested_at: Schema.Date,
  ready_at: Schema.NullOr(Schema.Date),
  expires_at: Schema.NullOr(Schema.Date),
  size_bytes: Schema.NullOr(Schema.BigInt)
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))
const utc = (date: Date | null) => (date === null ? null : DateTime.fromDateUnsafe(date))

const toExport = (row: typeof Row.Type): DataExport.DataExport => ({
  id: Snowflake.Snowflake.make(String(row.id)),
  userId: Snowflake.Snowflake.make(String(row.user_id)),
  state: row.state,
  requestedAt: DateTime.fromDateUnsafe(row.requested_at),
  readyAt: utc(row.ready_at),
  expiresAt: utc(row.expires_at),
  sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes)
})

const COLUMNS = "id, user_id, state, requested_at, ready_at, expires_at, size_bytes"

export const layer: Layer.Layer<DataExportsRepo.DataExportsRepo, never, SqlClient.SqlClient> = Layer.effect(
  DataExportsRepo.DataExportsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const date = DateTime.toDateUtc
    const columns = sql.unsafe(COLUMNS)
    const rows = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
      query.pipe(
        Effect.flatMap(decodeRows),
        Effect.map((found) => found.map(toExport)),
        Effect.orDie
      )
    const run = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(Effect.asVoid(query))

    return DataExportsRepo.DataExportsRepo.of({
      create: (exported) =>
        sql`INSERT INTO data_exports ${sql.insert({
          id: exported.id,
          user_id: exported.userId,
          state: exported.state,
          requested_at: date(exported.requestedAt)
        })}`.pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", () => Effect.fail(new PrivacyErrors.ExportInProgress())),
          Effect.catchTag("SqlError", Effect.die)
        ),
      latest: (userId) =>
        Effect.map(
          rows(sql`SELECT ${columns} FROM data_exports WHERE user_id = ${userId}
                   ORDER BY requested_at DESC, id DESC LIMIT 1`),
          (found) => Option.fromNullishOr(found[0])
        ),
      claim: (now, leaseUntil, limit) =>
        rows(sql`
          UPDATE data_exports SET lease_until = ${date(leaseUntil)}
          WHERE id IN (
            SELECT id FROM data_exports
            WHERE state = 'preparing' AND (lease_until IS NULL OR lease_until <= ${date(now)})
            ORDER BY requested_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          RETURNING ${columns}`),
      markReady: (id, readyAt, expiresAt, sizeBytes) =>
        run(sql`UPDATE data_exports SET state = 'ready', ready_at = ${date(readyAt)}, expires_at = ${date(expiresAt)},
                  size_bytes = ${sizeBytes}, lease_until = NULL WHERE id = ${id}`),
      markFailed: (id) => run(sql`UPDATE data_exports SET state = 'failed', lease_until = NULL WHERE id = ${id}`),
      expiring: (now) =>
        rows(sql`SELECT ${columns} FROM data_exports WHERE state = 'ready' AND expires_at <= ${date(now)}`),
      markExpired: (id) =>
        run(
          sql`UPDATE data_exports SET state = 'expired', link_digest = NULL, link_expires_at = NULL WHERE id = ${id}`
        ),
      setLink: (id, digest, expiresAt) =>
        run(
          sql`UPDATE data_exports SET link_digest = ${digest}, link_expires_at = ${date(expiresAt)} WHERE id = ${id}`
        ),
      findByLink: (digest, now) =>
        Effect.map(
          rows(sql`SELECT ${columns} FROM data_exports
                   WHERE link_digest = ${digest} AND link_expires_at > ${date(now)} AND state = 'ready'`),
          (found) => Option.fromNullishOr(found[0])
        )
    })
  })
)
