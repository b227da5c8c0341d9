/**
 * AuditLogRepo on PostgreSQL (`staff_audit_log`, migration 0027): appended rows, read newest first
 * by id (a snowflake: time order) with an index per filter (action, target).
 */
import { type AuditEntry, AuditLogRepo } from "@veche/moderation"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as DecodedRows from "./internal/DecodedRows.ts"

const Row = Schema.Struct({
  id: Schema.String,
  staff_id: Schema.String,
  action: Schema.String,
  target_type: Schema.Literals(["user", "guild", "catalogue", "entitlement"]),
  target_id: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  details: Schema.Record(Schema.String, Schema.NullOr(Schema.Union([Schema.String, Schema.Array(Schema.String)]))),
  created_at: Schema.Date
})

const toEntry = (row: typeof Row.Type): AuditEntry.AuditEntry => ({
  id: Snowflake.Snowflake.make(row.id),
  staffId: Snowflake.Snowflake.make(row.staff_id),
  action: row.action,
  targetType: row.target_type,
  targetId: row.target_id === null ? null : Snowflake.Snowflake.make(row.target_id),
  reason: row.reason,
  details: row.details,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

export const layer: Layer.Layer<AuditLogRepo.AuditLogRepo, never, SqlClient.SqlClient> = Layer.effect(
  AuditLogRepo.AuditLogRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { many } = DecodedRows.of(Row, toEntry)
    return AuditLogRepo.AuditLogRepo.of({
      append: (entry) =>
        sql`
          INSERT INTO staff_audit_log (id, staff_id, action, target_type, target_id, reason, details, created_at)
          VALUES (${entry.id}, ${entry.staffId}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
            ${entry.reason}, ${JSON.stringify(entry.details)}::jsonb, ${DateTime.toDateUtc(entry.createdAt)})`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      page: (query) =>
        many(sql`
          SELECT id::text, staff_id::text, action, target_type, target_id::text, reason, details, created_at
          FROM staff_audit_log
          WHERE ${query.before === null ? sql`true` : sql`id < ${query.before}`}
            AND ${query.action === null ? sql`true` : sql`action = ${query.action}`}
            AND ${query.targetId === null ? sql`true` : sql`target_id = ${query.targetId}`}
          ORDER BY id DESC LIMIT ${query.limit}`)
    })
  })
)
