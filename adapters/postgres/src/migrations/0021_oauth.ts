/**
 * The OAuth provider: authorization codes (by SHA-256 digest; spent by a conditional update that
 * records the grant it started), grants (one per redemption; revoking one ends all its tokens), and
 * access and refresh tokens by digest. Everything goes with its application or user; the sweep
 * (OAuthSweep) removes expired codes and access tokens and revoked grants by the expiry indexes.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE oauth_grants (
      id             BIGINT PRIMARY KEY,
      application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
      user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      scopes         JSONB NOT NULL,
      confidential   BOOLEAN NOT NULL,
      created_at     TIMESTAMPTZ NOT NULL,
      revoked_at     TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX oauth_grants_application ON oauth_grants (application_id, user_id)`
  yield* sql`CREATE INDEX oauth_grants_user ON oauth_grants (user_id)`
  yield* sql`
    CREATE TABLE oauth_codes (
      digest         TEXT PRIMARY KEY,
      application_id BIGINT NOT NULL REFERENCES applications (id) ON DELETE CASCADE,
      user_id        BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      redirect_uri   TEXT,
      scopes         JSONB NOT NULL,
      code_challenge TEXT,
      created_at     TIMESTAMPTZ NOT NULL,
      expires_at     TIMESTAMPTZ NOT NULL,
      used_at        TIMESTAMPTZ,
      grant_id       BIGINT
    )`
  yield* sql`CREATE INDEX oauth_codes_application ON oauth_codes (application_id)`
  // The sweep's: expired codes and access tokens, revoked grants.
  yield* sql`CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at)`
  yield* sql`CREATE INDEX oauth_grants_revoked ON oauth_grants (revoked_at) WHERE revoked_at IS NOT NULL`
  yield* sql`
    CREATE TABLE oauth_access_tokens (
      digest     TEXT PRIMARY KEY,
      grant_id   BIGINT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      expires_at TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX oauth_access_tokens_grant ON oauth_access_tokens (grant_id)`
  yield* sql`CREATE INDEX oauth_access_tokens_expiry ON oauth_access_tokens (expires_at)`
  yield* sql`
    CREATE TABLE oauth_refresh_tokens (
      digest   TEXT PRIMARY KEY,
      grant_id BIGINT NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      spent    BOOLEAN NOT NULL DEFAULT false
    )`
  yield* sql`CREATE INDEX oauth_refresh_tokens_grant ON oauth_refresh_tokens (grant_id)`
})
