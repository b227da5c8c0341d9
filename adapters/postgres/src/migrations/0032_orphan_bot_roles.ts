/**
 * Deletes the managed roles of bots that are no longer in their guild. Until this release a bot
 * kicked, banned or taken out with its application left its managed role behind, which nobody
 * could delete (a managed role is the bot's) and which counted towards the guild's 250 roles;
 * now every way out deletes it with the membership (`PgGuildQueries.dropMember`). The roles are
 * taken from members' role lists and channel overwrites as a deleted role is.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const orphans = yield* sql<{ readonly guildId: string; readonly roleId: string }>`
    DELETE FROM guild_roles r
    WHERE r.managed AND r.bot_id IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM guild_members m WHERE m.guild_id = r.guild_id AND m.user_id = r.bot_id)
    RETURNING r.guild_id::text AS "guildId", r.id::text AS "roleId"`
  for (const { guildId, roleId } of orphans) {
    // role_ids holds ids as JSON strings: `-` drops the matching element.
    yield* sql`
      UPDATE guild_members SET role_ids = role_ids - ${roleId}::text
      WHERE guild_id = ${guildId}::bigint AND role_ids ? ${roleId}::text`
    yield* sql`
      UPDATE guild_channels SET overwrites = COALESCE(
        (SELECT jsonb_agg(o ORDER BY n) FROM jsonb_array_elements(overwrites) WITH ORDINALITY AS e (o, n)
         WHERE NOT (o ->> 'id' = ${roleId}::text AND o ->> 'type' = '0')),
        '[]'::jsonb)
      WHERE guild_id = ${guildId}::bigint
        AND overwrites @> jsonb_build_array(jsonb_build_object('id', ${roleId}::text, 'type', 0))`
  }
})
