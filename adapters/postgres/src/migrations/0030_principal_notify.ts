/**
 * Every change to a row the access-token lookup reads notifies channel `veche_principal` with the
 * user's id, so each node's PrincipalCache drops that user's entries (see PrincipalCache.ts): the
 * lookup's tables and, for `GET /users/@me`, the account snapshot's, memberships, Plus and pending
 * e-mail links. A TRUNCATE notifies `*` (everything). PostgreSQL folds the same payload notified
 * twice in one transaction into one.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

interface Watch {
  /** The user's id reads another table (its trigger then runs under the schema's search path). */
  readonly readsTable?: boolean
  /** Only updates of these columns notify: the ones the lookup reads, where others change in bulk. */
  readonly columns?: ReadonlyArray<string>
}

/** Each watched table with the expression of its user's id over the row `r` (NEW or OLD). */
export const WATCHED: ReadonlyArray<readonly [table: string, userId: (row: string) => string, watch?: Watch]> = [
  ["users", (r) => `${r}.id`],
  ["sessions", (r) => `${r}.user_id`],
  // A token row names its session only; a session deleted with its tokens notifies by itself.
  ["session_tokens", (r) => `(SELECT s.user_id FROM sessions s WHERE s.id = ${r}.session_id)`, { readsTable: true }],
  ["account_blocks", (r) => `${r}.user_id`],
  ["credentials", (r) => `${r}.user_id`],
  // Whether a row exists only; each code checked moves last_step.
  ["mfa_totp", (r) => `${r}.user_id`, { columns: ["user_id"] }],
  ["user_profiles", (r) => `${r}.user_id`],
  // The guilds in join order; roles and nicknames are not read (a role deleted updates every member
  // who had it: one notice per member to every listening connection of every node).
  ["guild_members", (r) => `${r}.user_id`, { columns: ["guild_id", "user_id", "joined_at"] }],
  // The term only; renewal claims mark a batch of rows at a time.
  ["billing_plus", (r) => `${r}.user_id`, { columns: ["user_id", "premium_until"] }],
  ["email_links", (r) => `${r}.user_id`]
]

const notifyOf = (expression: string) => `
    changed := ${expression};
    IF changed IS NOT NULL THEN PERFORM pg_notify('veche_principal', changed::text); END IF;`

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  // Where the tables are being made (the first schema of the migration's search path), quoted.
  const [{ schema } = { schema: "public" }] = yield* sql<{ readonly schema: string }>`
    SELECT quote_ident(current_schema()) AS schema`
  yield* sql.unsafe(`
    CREATE FUNCTION veche_principal_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('veche_principal', '*');
      RETURN NULL;
    END $$`)
  for (const [table, userId, watch] of WATCHED) {
    const fn = `veche_principal_${table}`
    // A trigger runs under the writer's search path: a script whose path is not the schema's
    // (naming Veche's tables in full) would read another schema's `sessions`, notifying nobody, or
    // none at all, failing its write. The schema the tables are in is pinned instead (with the
    // session's temporary tables last, so a temporary `sessions` cannot stand in either).
    const pinned = watch?.readsTable === true ? `SET search_path = ${schema}, pg_temp` : ""
    const updates = watch?.columns === undefined ? "UPDATE" : `UPDATE OF ${watch.columns.join(", ")}`
    yield* sql.unsafe(`
      CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql ${pinned} AS $$
      DECLARE changed bigint;
      BEGIN
        IF TG_OP <> 'INSERT' THEN ${notifyOf(userId("OLD"))}
        END IF;
        IF TG_OP <> 'DELETE' THEN ${notifyOf(userId("NEW"))}
        END IF;
        RETURN NULL;
      END $$`)
    yield* sql.unsafe(`CREATE TRIGGER ${fn} AFTER INSERT OR ${updates} OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${fn}()`)
    yield* sql.unsafe(`CREATE TRIGGER ${fn}_truncated AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION veche_principal_truncated()`)
  }
})
