/**
 * A new session or token no longer notifies `veche_principal` (migration 0030 made the triggers).
 * No kept answer can depend on a row that did not exist when it was read: the lookup reads the one
 * token named by its digest and that token's session, never a count or a list of either, and
 * unknown tokens are never kept. Updates and deletes (revocation, touch, rotation, password change)
 * still notify, and a rotation's insert shares its transaction, and so its one notification, with
 * the update that spends the old token.
 *
 * Each login inserted a session and its two tokens: one notification, which woke every listening
 * connection of every node (each node's pool listens) for nothing.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The tables whose inserts no kept answer can depend on (see above). */
const QUIET_INSERTS: ReadonlyArray<string> = ["sessions", "session_tokens"]

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const table of QUIET_INSERTS) {
    const fn = `veche_principal_${table}`
    // Replaced in place (PostgreSQL 14+): its lock lets the lookups read on while nodes of the
    // previous release serve, where DROP TRIGGER's would stop them until the migration commits.
    yield* sql.unsafe(
      `CREATE OR REPLACE TRIGGER ${fn} AFTER UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`
    )
  }
})
