/**
 * Two-factor state: one TOTP row per user that has it on (the secret sealed, never plain; the last
 * time step used, for replay protection) and that user's unused backup codes (salted hashes; a used
 * code is deleted). Turning TOTP off deletes the row, and its codes with it.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE mfa_totp (
      user_id         BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      secret_envelope TEXT NOT NULL,
      last_step       BIGINT NOT NULL,
      enabled_at      TIMESTAMPTZ NOT NULL
    )`
  yield* sql`
    CREATE TABLE mfa_backup_codes (
      id      BIGSERIAL PRIMARY KEY,
      user_id BIGINT NOT NULL REFERENCES mfa_totp (user_id) ON DELETE CASCADE,
      hash    TEXT NOT NULL
    )`
  yield* sql`CREATE INDEX mfa_backup_codes_user_id ON mfa_backup_codes (user_id)`
})
