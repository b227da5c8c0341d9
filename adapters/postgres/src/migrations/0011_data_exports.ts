/**
 * Data exports: one row per request. At most one `preparing` row per user (the partial unique
 * index settles concurrent requests); a worker leases rows; a download link is kept as a digest.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE data_exports (
      id              BIGINT PRIMARY KEY,
      user_id         BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      state           TEXT NOT NULL CHECK (state IN ('preparing', 'ready', 'failed', 'expired')),
      requested_at    TIMESTAMPTZ NOT NULL,
      ready_at        TIMESTAMPTZ,
      expires_at      TIMESTAMPTZ,
      size_bytes      BIGINT,
      lease_until     TIMESTAMPTZ,
      link_digest     TEXT,
      link_expires_at TIMESTAMPTZ
    )`
  yield* sql`CREATE UNIQUE INDEX data_exports_one_preparing ON data_exports (user_id) WHERE state = 'preparing'`
  yield* sql`CREATE INDEX data_exports_by_user ON data_exports (user_id, requested_at)`
  yield* sql`CREATE UNIQUE INDEX data_exports_link ON data_exports (link_digest) WHERE link_digest IS NOT NULL`
})
