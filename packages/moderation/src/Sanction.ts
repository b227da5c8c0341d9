/**
 * A sanction staff put on an account: a block (the account cannot log in, refresh or recover, and
 * every request with one of its tokens answers 403 40007) or a restriction (a shadow one: the
 * account works as before, but friend requests and invitations refuse with 403 20025). At most one
 * of each kind per account; one with no end is permanent, one whose end has passed no longer counts.
 * Both kinds are the same record, so one store and one set of rules serve them.
 */
import type { Block } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { DateTime, Schema } from "effect"

export const MAX_REASON = 200

export const Kind = Schema.Literals(["block", "restriction"])
export type Kind = typeof Kind.Type

export const Sanction = Schema.Struct({
  userId: Snowflake.Snowflake,
  kind: Kind,
  reason: Schema.String,
  /** The end of the term; null for a permanent one. */
  until: Schema.NullOr(Schema.DateTimeUtc),
  /** The staff member who set it; null when set by the system or a CLI. */
  by: Schema.NullOr(Snowflake.Snowflake),
  createdAt: Schema.DateTimeUtc
})
export type Sanction = typeof Sanction.Type

export const isActive = (sanction: Sanction, now: DateTime.Utc): boolean =>
  sanction.until === null || DateTime.isGreaterThan(sanction.until, now)

/**
 * The kinds' own views, with the staff member named for the act: what `Moderation` answers and the
 * wire shows (`blocked_by`, `restricted_by`). A block is the accounts domain's `Block` record, the
 * one its session path reads.
 */
export const toBlock = (sanction: Sanction): Block.Block => ({
  userId: sanction.userId,
  reason: sanction.reason,
  until: sanction.until,
  blockedBy: sanction.by,
  createdAt: sanction.createdAt
})

export interface Restriction {
  readonly userId: Snowflake.Snowflake
  readonly reason: string
  readonly until: DateTime.Utc | null
  readonly restrictedBy: Snowflake.Snowflake | null
  readonly createdAt: DateTime.Utc
}

export const toRestriction = (sanction: Sanction): Restriction => ({
  userId: sanction.userId,
  reason: sanction.reason,
  until: sanction.until,
  restrictedBy: sanction.by,
  createdAt: sanction.createdAt
})
