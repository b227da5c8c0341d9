/**
 * Staff tools: the audit log of staff actions (append-only, paged by id newest first, filtered by
 * action or target), the catalogue's staff-edited disallowed words, and what the catalogue check
 * (the durable job that hides listed guilds no longer meeting the conditions) needs on listings:
 * why a guild is auto-hidden (`hidden_for`: conditions, reports or staff; only the job's own are
 * listed again by it) and when it was last checked (`checked_at`: nodes claim due rows with SKIP
 * LOCKED, so each is checked by one node per round).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE staff_audit_log (
      id          BIGINT PRIMARY KEY,
      staff_id    BIGINT NOT NULL,
      action      TEXT NOT NULL,
      target_type TEXT NOT NULL,
      target_id   BIGINT,
      reason      TEXT,
      details     JSONB NOT NULL,
      created_at  TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX staff_audit_log_action ON staff_audit_log (action, id DESC)`
  yield* sql`CREATE INDEX staff_audit_log_target ON staff_audit_log (target_id, id DESC) WHERE target_id IS NOT NULL`
  yield* sql`
    CREATE TABLE discovery_words (
      word     TEXT PRIMARY KEY,
      added_by BIGINT NOT NULL,
      added_at TIMESTAMPTZ NOT NULL
    )`
  yield* sql`
    ALTER TABLE discovery_listings
      ADD COLUMN hidden_for TEXT CHECK (hidden_for IN ('conditions', 'reports', 'staff')),
      ADD COLUMN checked_at TIMESTAMPTZ`
  // Existing auto-hidden rows were hidden by reports or staff (the job did not exist).
  yield* sql`UPDATE discovery_listings SET hidden_for = 'reports' WHERE state = 'auto_hidden'`
  yield* sql`
    CREATE INDEX discovery_listings_check ON discovery_listings (checked_at NULLS FIRST)
    WHERE state = 'listed' OR (state = 'auto_hidden' AND hidden_for = 'conditions')`
})
