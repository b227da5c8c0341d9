/**
 * The delivery queue (verification SMS and letters waiting to go out). A row is one job; its
 * payload carries codes and links, so it is stored sealed (SecretBox), never as plain text. A claim
 * sets `lease_until` and counts an attempt in one statement; the checks below keep a buggy
 * statement from storing a negative count.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE delivery_jobs (
      id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      payload         TEXT NOT NULL,
      expires_at      TIMESTAMPTZ NOT NULL,
      attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
      next_attempt_at TIMESTAMPTZ NOT NULL,
      lease_until     TIMESTAMPTZ,
      created_at      TIMESTAMPTZ NOT NULL
    )`
  // Claims look for the earliest due jobs; the sweep for expired ones.
  yield* sql`CREATE INDEX delivery_jobs_due_idx ON delivery_jobs (next_attempt_at)`
  yield* sql`CREATE INDEX delivery_jobs_expires_idx ON delivery_jobs (expires_at)`
})
