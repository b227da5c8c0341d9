/**
 * The rest of a guild: its settings (notifications, content filter, rules/updates/AFK channels,
 * locale, features), an exact member count kept by every statement that adds or removes a member
 * (so counts are read without counting rows), bot roles, channel slow mode and voice settings, bans
 * and invites. Added NOT NULL columns carry the platform's defaults so existing rows migrate.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE guilds
      ADD COLUMN default_message_notifications SMALLINT NOT NULL DEFAULT 0,
      ADD COLUMN explicit_content_filter       SMALLINT NOT NULL DEFAULT 0,
      ADD COLUMN rules_channel_id              BIGINT,
      ADD COLUMN public_updates_channel_id     BIGINT,
      ADD COLUMN afk_channel_id                BIGINT,
      ADD COLUMN afk_timeout                   INTEGER NOT NULL DEFAULT 300,
      ADD COLUMN preferred_locale              TEXT NOT NULL DEFAULT 'en-US',
      ADD COLUMN features                      JSONB NOT NULL DEFAULT '[]'::jsonb,
      ADD COLUMN member_count                  INTEGER NOT NULL DEFAULT 0 CHECK (member_count >= 0)`
  yield* sql`
    UPDATE guilds g SET member_count = m.n
    FROM (SELECT guild_id, count(*)::integer AS n FROM guild_members GROUP BY guild_id) m
    WHERE m.guild_id = g.id`
  // Who owns what (account deletion asks whether a user owns guilds with others in them).
  yield* sql`CREATE INDEX guilds_owner ON guilds (owner_id)`
  // A user's guilds paged by guild id (bots may be in many).
  yield* sql`CREATE INDEX guild_members_user_guild ON guild_members (user_id, guild_id)`

  yield* sql`ALTER TABLE guild_roles ADD COLUMN bot_id BIGINT`

  yield* sql`
    ALTER TABLE guild_channels
      ADD COLUMN rate_limit_per_user INTEGER NOT NULL DEFAULT 0,
      ADD COLUMN bitrate             INTEGER NOT NULL DEFAULT 0,
      ADD COLUMN user_limit          INTEGER NOT NULL DEFAULT 0`
  // Voice channels made before this migration get the platform's default bitrate.
  yield* sql`UPDATE guild_channels SET bitrate = 64000 WHERE type = 2`

  // Bans name user ids that may outlive (or never have had) an account here, as on the platform.
  yield* sql`
    CREATE TABLE guild_bans (
      guild_id   BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
      user_id    BIGINT NOT NULL,
      reason     TEXT,
      banned_by  BIGINT NOT NULL,
      created_at TIMESTAMPTZ NOT NULL,
      PRIMARY KEY (guild_id, user_id)
    )`

  yield* sql`
    CREATE TABLE guild_invites (
      code       TEXT PRIMARY KEY,
      guild_id   BIGINT NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
      channel_id BIGINT NOT NULL REFERENCES guild_channels (id) ON DELETE CASCADE,
      inviter_id BIGINT,
      max_age    INTEGER NOT NULL CHECK (max_age >= 0),
      max_uses   INTEGER NOT NULL CHECK (max_uses >= 0),
      uses       INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
      temporary  BOOLEAN NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX guild_invites_guild ON guild_invites (guild_id, created_at)`
  yield* sql`CREATE INDEX guild_invites_channel ON guild_invites (channel_id)`
})
