/**
 * A shadow restriction of an account (staff action): while active, the account may still log in
 * and use the API, but friend requests and invitations refuse with 403 20025. At most one per
 * account; one with no end is permanent, one whose end has passed no longer counts.
 */
import { Snowflake } from "@veche/platform"
import { DateTime, Schema } from "effect"

export const MAX_REASON = 200

export const Restriction = Schema.Struct({
  userId: Snowflake.Snowflake,
  reason: Schema.String,
  /** The end of the restriction; null for a permanent one. */
  until: Schema.NullOr(Schema.DateTimeUtc),
  /** The staff member who set it; null when set by the system or a CLI. */
  restrictedBy: Schema.NullOr(Snowflake.Snowflake),
  createdAt: Schema.DateTimeUtc
})
export type Restriction = typeof Restriction.Type

export const isActive = (restriction: Restriction, now: DateTime.Utc): boolean =>
  restriction.until === null || DateTime.isGreaterThan(restriction.until, now)
