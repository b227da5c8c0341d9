/**
 * GuildsRepo.memberSnapshot on PostgreSQL: the guild row with its member count, the member's own
 * record and the guild's roles and channels (by position, as `roles` and `channels` list them) in
 * one statement, the lists as JSON aggregates. A session's GUILD_CREATE took five statements for
 * this (each with its own round trip through the SQL client and its own row decoding); it is read
 * for every guild of every IDENTIFY. Ids travel as text and times as epoch milliseconds (JSON
 * numbers would round a snowflake), truncated as the driver truncates a timestamp's microseconds.
 */
import type { Guild, GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { ChannelRow, GuildRow, RoleRow, toGuild } from "./GuildRows.ts"

// The rows' own fields, with the ids as the text the aggregates carry and no guild id.
const { guild_id: _roleGuild, ...roleFields } = RoleRow.fields
const RoleJson = Schema.Struct({ ...roleFields, id: Schema.String, bot_id: Schema.NullOr(Schema.String) })
const { guild_id: _channelGuild, ...channelFields } = ChannelRow.fields
const ChannelJson = Schema.Struct({ ...channelFields, id: Schema.String, parent_id: Schema.NullOr(Schema.String) })
const MemberJson = Schema.Struct({
  nick: Schema.NullOr(Schema.String),
  role_ids: Schema.Array(Schema.String),
  joined_at: Schema.Number
})
const SnapshotRow = Schema.Struct({
  ...GuildRow.fields,
  member_count: Schema.Int,
  member: Schema.NullOr(MemberJson),
  roles: Schema.Array(RoleJson),
  channels: Schema.Array(ChannelJson)
})
const snapshotRows = Schema.decodeUnknownEffect(Schema.Array(SnapshotRow))

const optionalId = (text: string | null) => (text === null ? null : Snowflake.Snowflake.make(text))

export const make = (sql: SqlClient.SqlClient): Pick<GuildsRepo.GuildsRepo["Service"], "memberSnapshot"> => ({
  memberSnapshot: (guildId, userId) =>
    sql`
      SELECT g.*,
        (SELECT json_build_object('nick', m.nick, 'role_ids', m.role_ids,
                  'joined_at', trunc(extract(epoch FROM m.joined_at) * 1000)::bigint)
           FROM guild_members m WHERE m.guild_id = g.id AND m.user_id = ${userId}) AS member,
        (SELECT coalesce(json_agg(json_build_object('id', r.id::text, 'name', r.name,
                  'permissions', r.permissions, 'position', r.position, 'color', r.color, 'hoist', r.hoist,
                  'mentionable', r.mentionable, 'managed', r.managed, 'bot_id', r.bot_id::text)
                  ORDER BY r.position, r.id), '[]'::json)
           FROM guild_roles r WHERE r.guild_id = g.id) AS roles,
        (SELECT coalesce(json_agg(json_build_object('id', c.id::text, 'type', c.type, 'name', c.name,
                  'position', c.position, 'parent_id', c.parent_id::text, 'topic', c.topic, 'nsfw', c.nsfw,
                  'rate_limit_per_user', c.rate_limit_per_user, 'bitrate', c.bitrate,
                  'user_limit', c.user_limit, 'overwrites', c.overwrites)
                  ORDER BY c.position, c.id), '[]'::json)
           FROM guild_channels c WHERE c.guild_id = g.id) AS channels
      FROM guilds g WHERE g.id = ${guildId}`.pipe(
      Effect.flatMap(snapshotRows),
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined || row.member === null) return Option.none()
        const id = Snowflake.Snowflake.make(String(row.id))
        const member: Guild.Member = {
          guildId: id,
          userId,
          nick: row.member.nick,
          roleIds: row.member.role_ids.map((roleId) => Snowflake.Snowflake.make(roleId)),
          joinedAt: DateTime.fromDateUnsafe(new Date(row.member.joined_at))
        }
        return Option.some({
          guild: toGuild(row),
          member,
          roles: row.roles.map(
            (role): Guild.Role => ({
              id: Snowflake.Snowflake.make(role.id),
              guildId: id,
              name: role.name,
              permissions: BigInt(role.permissions),
              position: role.position,
              color: role.color,
              hoist: role.hoist,
              mentionable: role.mentionable,
              managed: role.managed,
              botId: optionalId(role.bot_id)
            })
          ),
          channels: row.channels.map(
            (channel): Guild.Channel => ({
              id: Snowflake.Snowflake.make(channel.id),
              guildId: id,
              type: channel.type,
              name: channel.name,
              position: channel.position,
              parentId: optionalId(channel.parent_id),
              topic: channel.topic,
              nsfw: channel.nsfw,
              rateLimitPerUser: channel.rate_limit_per_user,
              bitrate: channel.bitrate,
              userLimit: channel.user_limit,
              overwrites: channel.overwrites.map((o) => ({
                id: Snowflake.Snowflake.make(o.id),
                type: o.type,
                allow: BigInt(o.allow),
                deny: BigInt(o.deny)
              }))
            })
          ),
          memberCount: row.member_count
        })
      }),
      Effect.orDie
    )
})
