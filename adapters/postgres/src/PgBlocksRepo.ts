/** BlocksRepo on PostgreSQL (table `account_blocks`, migration 0008). */
import { BlocksRepo } from "@veche/auth"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { BlockColumns, SELECT_BLOCK, toBlock } from "./BlockRow.ts"

const Row = Schema.Struct({ user_id: Schema.BigInt, ...BlockColumns })
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

export const layer: Layer.Layer<BlocksRepo.BlocksRepo, never, SqlClient.SqlClient> = Layer.effect(
  BlocksRepo.BlocksRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return BlocksRepo.BlocksRepo.of({
      find: (userId) =>
        sql`SELECT b.user_id, ${sql.unsafe(SELECT_BLOCK)} FROM account_blocks b WHERE b.user_id = ${userId}`.pipe(
          Effect.flatMap(decodeRows),
          Effect.map((rows) => Option.fromNullishOr(rows[0] === undefined ? null : toBlock(rows[0].user_id, rows[0]))),
          Effect.orDie
        ),
      put: (block) =>
        sql`
          INSERT INTO account_blocks ${sql.insert({
            user_id: block.userId,
            reason: block.reason,
            until: block.until === null ? null : DateTime.toDateUtc(block.until),
            blocked_by: block.blockedBy,
            created_at: DateTime.toDateUtc(block.createdAt)
          })}
          ON CONFLICT (user_id) DO UPDATE SET reason = EXCLUDED.reason, until = EXCLUDED.until,
            blocked_by = EXCLUDED.blocked_by, created_at = EXCLUDED.created_at`.pipe(Effect.asVoid, Effect.orDie),
      remove: (userId) =>
        sql`DELETE FROM account_blocks WHERE user_id = ${userId} RETURNING user_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
