/**
 * Credentials: what only authentication reads, one row per user, created in the same transaction as
 * the user row. The unique constraints settle concurrent registrations of one phone or one address;
 * PgAccountsRepo tells them apart by these constraint names, so keep them.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE credentials (
      user_id        BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      -- Canonical +7XXXXXXXXXX; NULL for e-mail registrations (UNIQUE allows many NULLs).
      phone          TEXT CONSTRAINT credentials_phone_key UNIQUE,
      -- Stored as given (trimmed, domain lower-cased); unique without regard to letter case below.
      email          TEXT,
      email_verified BOOLEAN NOT NULL,
      password_hash  TEXT NOT NULL,
      date_of_birth  DATE NOT NULL,
      created_at     TIMESTAMPTZ NOT NULL
    )`
  // The mirrored platform treats addresses case-insensitively, so the whole address is compared
  // lower-cased; lookups use the same expression so that they can use this index.
  yield* sql`CREATE UNIQUE INDEX credentials_email_lower_key ON credentials (lower(email))`
})
