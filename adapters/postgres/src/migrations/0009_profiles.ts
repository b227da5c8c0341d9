/**
 * Profiles: bio, avatar and banner hashes, and the user's own settings, one row per user that has
 * changed any of them (a missing row means the defaults). The server order is a JSON array of ids.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE user_profiles (
      user_id       BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      bio           TEXT,
      avatar        TEXT,
      banner        TEXT,
      status        TEXT NOT NULL,
      custom_status TEXT,
      theme         TEXT NOT NULL,
      locale        TEXT NOT NULL,
      guild_order   JSONB NOT NULL
    )`
})
