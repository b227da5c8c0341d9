/**
 * Platform blocks of accounts: at most one row per account (setting a block replaces it). Read
 * with every access-token lookup (a join on the primary key), so a block applies at once.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_blocks (
      user_id    BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      reason     TEXT NOT NULL,
      until      TIMESTAMPTZ,
      blocked_by BIGINT,
      created_at TIMESTAMPTZ NOT NULL
    )`
})
