/**
 * E-mail links (confirmation and password change): the digest of each link's secret, the user and
 * address it was sent for, and when it was used or burned. Looked up by digest; burned per user and
 * purpose when a newer link goes out or a recovery finishes.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE email_links (
      id           BIGINT PRIMARY KEY,
      purpose      TEXT NOT NULL CHECK (purpose IN ('bind', 'recover')),
      token_digest TEXT NOT NULL UNIQUE,
      user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      email        TEXT NOT NULL,
      created_at   TIMESTAMPTZ NOT NULL,
      expires_at   TIMESTAMPTZ NOT NULL,
      used_at      TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX email_links_open_by_user ON email_links (user_id, purpose) WHERE used_at IS NULL`
})
