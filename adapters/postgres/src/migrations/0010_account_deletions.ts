/**
 * Deletion requests, one row per account, kept after the deletion (the state stays answerable).
 * Due requests are found by the partial index on pending rows.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_deletions (
      user_id      BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      state        TEXT NOT NULL CHECK (state IN ('pending', 'cancelled', 'completed')),
      requested_at TIMESTAMPTZ NOT NULL,
      delete_at    TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX account_deletions_due ON account_deletions (delete_at) WHERE state = 'pending'`
})
