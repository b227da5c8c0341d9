/**
 * A platform block of an account (staff action, set by the moderation domain): while active, the
 * account cannot log in, refresh or recover, and every request with one of its tokens answers 403
 * 40007 with the reason and term. A block with no end is permanent; one whose end has passed no
 * longer counts. The record as the accounts domain reads it: SessionsRepo returns it with the
 * session on every token lookup, AccountBlocks answers it for logins.
 */
import { Snowflake } from "@veche/platform"
import { DateTime, Schema } from "effect"

export const Block = Schema.Struct({
  userId: Snowflake.Snowflake,
  reason: Schema.String,
  /** The end of the block; null for a permanent one. */
  until: Schema.NullOr(Schema.DateTimeUtc),
  /** The staff member who set it; null when set by the system or a CLI. */
  blockedBy: Schema.NullOr(Snowflake.Snowflake),
  createdAt: Schema.DateTimeUtc
})
export type Block = typeof Block.Type

export const isActive = (block: Block, now: DateTime.Utc): boolean =>
  block.until === null || DateTime.isGreaterThan(block.until, now)

/** The 40007 message: the mirrored platform's text, then the reason and the term. */
export const describe = (block: Block): string =>
  `Your account is blocked: ${block.reason}. ${
    block.until === null ? "The block is permanent." : `The block ends at ${DateTime.formatIso(block.until)}.`
  }`
