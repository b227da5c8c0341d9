/** An `account_blocks` row as PgSessionsRepo's token lookup reads it (PgSanctionsRepo writes the table). */
import type { Block } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { DateTime, Schema } from "effect"

export const BlockColumns = {
  block_reason: Schema.NullOr(Schema.String),
  block_until: Schema.NullOr(Schema.Date),
  block_by: Schema.NullOr(Schema.BigInt),
  block_created_at: Schema.NullOr(Schema.Date)
}

/** `b.…` columns under the names above, for a query that joins `account_blocks b`. */
export const SELECT_BLOCK =
  "b.reason AS block_reason, b.until AS block_until, b.blocked_by AS block_by, b.created_at AS block_created_at"

export const toBlock = (
  userId: bigint,
  row: {
    readonly block_reason: string | null
    readonly block_until: Date | null
    readonly block_by: bigint | null
    readonly block_created_at: Date | null
  }
): Block.Block | null =>
  row.block_reason === null || row.block_created_at === null
    ? null
    : {
        userId: Snowflake.Snowflake.make(String(userId)),
        reason: row.block_reason,
        until: row.block_until === null ? null : DateTime.fromDateUnsafe(row.block_until),
        blockedBy: row.block_by === null ? null : Snowflake.Snowflake.make(String(row.block_by)),
        createdAt: DateTime.fromDateUnsafe(row.block_created_at)
      }
