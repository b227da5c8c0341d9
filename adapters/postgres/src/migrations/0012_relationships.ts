/** Relationships: one row per (user, other); both users must exist. */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE relationships (
      user_id  BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      other_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      type     SMALLINT NOT NULL CHECK (type IN (1, 2, 3, 4)),
      nickname TEXT,
      since    TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (user_id, other_id)
    )`
})
