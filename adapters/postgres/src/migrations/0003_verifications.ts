/**
 * Verification records (phone and e-mail codes). The row is the unit of atomicity: a code is used,
 * counted or replaced by one conditional UPDATE on it, and the checks below keep even a buggy
 * statement from storing a count past the limit or an unknown purpose.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE verifications (
      id           BIGINT PRIMARY KEY,
      purpose      TEXT NOT NULL CHECK (purpose IN ('register', 'recover', 'change_phone', 'email_register')),
      target       TEXT NOT NULL,
      channel      TEXT NOT NULL CHECK (channel IN ('sms', 'messenger', 'console', 'mobileid', 'email')),
      code_digest  TEXT NOT NULL,
      code_length  SMALLINT NOT NULL CHECK (code_length IN (4, 6)),
      status       TEXT NOT NULL CHECK (status IN ('pending', 'needs_code', 'ok', 'failed')),
      attempts     INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL CHECK (max_attempts > 0),
      created_at   TIMESTAMPTZ NOT NULL,
      expires_at   TIMESTAMPTZ NOT NULL,
      consumed_at  TIMESTAMPTZ,
      -- No foreign key: a record outlives nothing it needs, and registrations have no user yet.
      user_id      BIGINT,
      sms_switched BOOLEAN NOT NULL DEFAULT false,
      CHECK (attempts BETWEEN 0 AND max_attempts)
    )`
  // invalidateFor burns the open records of one target and purpose; closed ones never matter again.
  yield* sql`
    CREATE INDEX verifications_open_target_purpose_idx ON verifications (target, purpose)
      WHERE consumed_at IS NULL AND status <> 'failed'`
})
