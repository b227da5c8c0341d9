/**
 * Users know whether they are an application's bot: members, bans and invitations show a bot as one
 * even when it holds no managed role (added with no permissions). The bot users made so far are
 * exactly the rows sharing an application's id.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE users ADD COLUMN bot BOOLEAN NOT NULL DEFAULT false`
  yield* sql`UPDATE users SET bot = true WHERE id IN (SELECT id FROM applications)`
})
