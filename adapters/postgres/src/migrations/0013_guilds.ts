/**
 * Guilds and their parts. Permission bit sets are kept as decimal text (they are unsigned 64-bit;
 * BIGINT is signed); channel overwrites as JSON. Members are found by user in join order.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE guilds (
      id                 BIGINT PRIMARY KEY,
      name               TEXT NOT NULL,
      icon               TEXT,
      banner             TEXT,
      description        TEXT,
      owner_id           BIGINT NOT NULL REFERENCES users (id),
      verification_level SMALLINT NOT NULL,
      system_channel_id  BIGINT,
      created_at         TIMESTAMPTZ NOT NULL
    )`
  yield* sql`
    CREATE TABLE guild_roles (
      id          BIGINT PRIMARY KEY,
      guild_id    BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
      name        TEXT NOT NULL,
      permissions TEXT NOT NULL,
      position    INTEGER NOT NULL,
      color       INTEGER NOT NULL,
      hoist       BOOLEAN NOT NULL,
      mentionable BOOLEAN NOT NULL,
      managed     BOOLEAN NOT NULL
    )`
  yield* sql`CREATE INDEX guild_roles_guild ON guild_roles (guild_id)`
  yield* sql`
    CREATE TABLE guild_channels (
      id         BIGINT PRIMARY KEY,
      guild_id   BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
      type       SMALLINT NOT NULL,
      name       TEXT NOT NULL,
      position   INTEGER NOT NULL,
      parent_id  BIGINT,
      topic      TEXT,
      nsfw       BOOLEAN NOT NULL,
      overwrites JSONB NOT NULL
    )`
  yield* sql`CREATE INDEX guild_channels_guild ON guild_channels (guild_id)`
  yield* sql`
    CREATE TABLE guild_members (
      guild_id  BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
      user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      nick      TEXT,
      role_ids  JSONB NOT NULL,
      joined_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (guild_id, user_id)
    )`
  yield* sql`CREATE INDEX guild_members_user ON guild_members (user_id, joined_at)`
})
