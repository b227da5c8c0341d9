/**
 * Developer applications: one row each, its bot user sharing its id (a users row, so the bot's
 * user survives the application, freed of its name). Secrets are SHA-256 digests; the bot token's
 * is unique and indexed (every bot request looks it up).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE applications (
      id                     BIGINT PRIMARY KEY,
      owner_id               BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      name                   TEXT NOT NULL,
      description            TEXT NOT NULL,
      icon                   TEXT,
      bot_public             BOOLEAN NOT NULL,
      bot_require_code_grant BOOLEAN NOT NULL,
      redirect_uris          JSONB NOT NULL,
      bot_token_digest       TEXT UNIQUE,
      secret_digest          TEXT,
      created_at             TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX applications_owner ON applications (owner_id, id)`
})
