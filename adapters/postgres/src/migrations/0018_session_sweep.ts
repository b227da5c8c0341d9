/**
 * What the session sweep looks for: sessions past their absolute end, and revoked ones. Without
 * these each sweep would read the whole table to find the few dead rows; with them it reads only
 * those (PostgreSQL combines the two with a bitmap OR). The revoked index is partial: live sessions,
 * the bulk of the table, are not in it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX sessions_expires_at ON sessions (expires_at)`
  yield* sql`CREATE INDEX sessions_revoked_at ON sessions (revoked_at) WHERE revoked_at IS NOT NULL`
})
