/** Accounts. Usernames are unique regardless of letter case (the index settles races, not JS). */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE users (
      id           BIGINT PRIMARY KEY,
      username     TEXT NOT NULL,
      display_name TEXT,
      created_at   TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE UNIQUE INDEX users_username_lower_key ON users (lower(username))`
})
