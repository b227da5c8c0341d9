/**
 * When an account's password last changed, and which change each session was started under.
 *
 * A login that checked the old password while a recovery set a new one could start its session
 * after the recovery had ended every session, and keep it. So a session records the
 * credentials' `password_changed_at` its login saw (NULL: never changed), and a session whose value
 * is not the account's current one is refused on every request and refresh. Equality, not a
 * comparison of clocks: the value is copied from the row the login read, so which node's clock is
 * ahead does not matter. Both columns are NULL for rows made before this migration, which stay valid.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE credentials ADD COLUMN password_changed_at TIMESTAMPTZ`
  yield* sql`ALTER TABLE sessions ADD COLUMN password_changed_at TIMESTAMPTZ`
})
