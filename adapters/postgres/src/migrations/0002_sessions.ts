/**
 * Login sessions and their tokens, kept by SHA-256 digest only. One row per token; a refresh token
 * is spent by setting used_at in one conditional UPDATE, which settles concurrent refreshes.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE sessions (
      id           BIGINT PRIMARY KEY,
      user_id      BIGINT NOT NULL,
      user_agent   TEXT,
      address      TEXT,
      country      TEXT,
      created_at   TIMESTAMPTZ NOT NULL,
      last_used_at TIMESTAMPTZ NOT NULL,
      expires_at   TIMESTAMPTZ NOT NULL,
      revoked_at   TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX sessions_user_live ON sessions (user_id) WHERE revoked_at IS NULL`
  yield* sql`
    CREATE TABLE session_tokens (
      digest     TEXT PRIMARY KEY,
      session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
      kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
      expires_at TIMESTAMPTZ,
      used_at    TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX session_tokens_session ON session_tokens (session_id)`
})
