/**
 * The staff audit log as a service: `record` is the hook every staff action calls (moderation's
 * blocks and restrictions, the catalogue's states and words, billing's grants), `read` answers
 * staff only. Recording asks no permission: the caller already checked that its actor is staff.
 */
import { Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer } from "effect"
import type { AuditEntry, AuditQuery, Details, TargetType } from "./AuditEntry.ts"
import { AuditLogRepo } from "./AuditLogRepo.ts"
import { NotStaff } from "./ModerationErrors.ts"
import { Staff } from "./Staff.ts"

/** What a domain tells the log; the id and time are the log's. */
export interface Record {
  readonly staffId: Snowflake.Snowflake
  readonly action: string
  readonly targetType: TargetType
  readonly targetId: Snowflake.Snowflake | null
  readonly reason: string | null
  readonly details?: Details
}

export class AuditLog extends Context.Service<
  AuditLog,
  {
    readonly record: (record: Record) => Effect.Effect<AuditEntry>
    readonly read: (
      staffId: Snowflake.Snowflake,
      query: AuditQuery
    ) => Effect.Effect<ReadonlyArray<AuditEntry>, NotStaff>
  }
>()("@veche/moderation/AuditLog") {
  static readonly layer: Layer.Layer<AuditLog, never, AuditLogRepo | Staff | Snowflake.SnowflakeGenerator> =
    Layer.effect(
      AuditLog,
      Effect.gen(function* () {
        const repo = yield* AuditLogRepo
        const staff = yield* Staff
        const ids = yield* Snowflake.SnowflakeGenerator
        return AuditLog.of({
          record: Spans.fn("AuditLog.record")(function* (record: Record) {
            const entry: AuditEntry = {
              id: yield* ids.next,
              staffId: record.staffId,
              action: record.action,
              targetType: record.targetType,
              targetId: record.targetId,
              reason: record.reason,
              details: record.details ?? {},
              createdAt: yield* DateTime.now
            }
            yield* repo.append(entry)
            return entry
          }),
          read: Spans.fn("AuditLog.read")(function* (staffId: Snowflake.Snowflake, query: AuditQuery) {
            if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
            return yield* repo.page(query)
          })
        })
      })
    )
}
