/**
 * Shadow restrictions of accounts: at most one row per account (setting a restriction replaces
 * it). Read by primary key when a friend request or an invitation is made, never per request.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE account_restrictions (
      user_id       BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      reason        TEXT NOT NULL,
      until         TIMESTAMPTZ,
      restricted_by BIGINT,
      created_at    TIMESTAMPTZ NOT NULL
    )`
})
