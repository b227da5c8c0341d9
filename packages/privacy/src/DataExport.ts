/**
 * A user's data export: an archive of what the platform holds about them, built in the background.
 * `preparing` until built (a worker holds it under a lease, so a crashed worker's export is built
 * again), then `ready` for a week, then `expired` (the archive is deleted). At most one is prepared
 * at a time per user, and one may be asked for per day.
 */
import { Snowflake } from "@veche/platform"
import { Duration, Schema } from "effect"

export const KEPT_FOR = Duration.weeks(1)
export const LINK_VALID_FOR = Duration.hours(1)

export const State = Schema.Literals(["preparing", "ready", "failed", "expired"])
export type State = typeof State.Type

export const DataExport = Schema.Struct({
  id: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  state: State,
  requestedAt: Schema.DateTimeUtc,
  readyAt: Schema.NullOr(Schema.DateTimeUtc),
  /** When a ready archive is deleted. */
  expiresAt: Schema.NullOr(Schema.DateTimeUtc),
  sizeBytes: Schema.NullOr(Schema.Int)
})
export type DataExport = typeof DataExport.Type

/** Where the archive is kept (MediaStorage key). */
export const archiveKey = (exported: DataExport): string => `exports/${exported.userId}/${exported.id}.zip`
