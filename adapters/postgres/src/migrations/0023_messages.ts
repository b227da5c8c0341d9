/**
 * Messages of guild text channels. History is read newest first by channel and cut by id (ids grow
 * with time), so `(channel_id, id DESC)` keeps a channel's newest page one index scan; pins are
 * read by a partial index; a user's messages (export, erasure) by author. Slow mode keeps one row
 * per channel and member: the last time they posted, claimed with a conditional upsert.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE messages (
      id                    BIGINT PRIMARY KEY,
      channel_id            BIGINT NOT NULL,
      guild_id              BIGINT NOT NULL,
      author_id             BIGINT NOT NULL,
      author_bot            BOOLEAN NOT NULL,
      content               TEXT NOT NULL,
      embeds                JSONB NOT NULL,
      mention_user_ids      JSONB NOT NULL,
      mention_role_ids      JSONB NOT NULL,
      mention_everyone      BOOLEAN NOT NULL,
      nonce                 JSONB,
      tts                   BOOLEAN NOT NULL,
      type                  SMALLINT NOT NULL,
      referenced_message_id BIGINT,
      pinned_at             TIMESTAMPTZ,
      edited_at             TIMESTAMPTZ,
      created_at            TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX messages_channel_newest ON messages (channel_id, id DESC)`
  yield* sql`CREATE INDEX messages_pins ON messages (channel_id, pinned_at DESC) WHERE pinned_at IS NOT NULL`
  yield* sql`CREATE INDEX messages_author ON messages (author_id, id)`
  yield* sql`
    CREATE TABLE message_slowmode (
      channel_id BIGINT NOT NULL,
      user_id    BIGINT NOT NULL,
      posted_at  TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (channel_id, user_id)
    )`
})
