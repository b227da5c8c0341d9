/**
 * The guild tables' rows as a statement's JSON aggregates carry them (GuildsRepo.memberSnapshot,
 * GuildsRepo.channelPlace): the row schemas' own fields with the ids as text and times as epoch
 * milliseconds (a JSON number would round a snowflake), without the guild id (the statement's guild
 * row has it), and the mappers to the domain's records.
 */
import type { Guild } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { DateTime, Schema } from "effect"
import * as Rows from "./GuildRows.ts"

/** A role row `r` as `RoleJson` reads it. */
export const ROLE_JSON = `json_build_object('id', r.id::text, 'name', r.name,
  'permissions', r.permissions, 'position', r.position, 'color', r.color, 'hoist', r.hoist,
  'mentionable', r.mentionable, 'managed', r.managed, 'bot_id', r.bot_id::text)`
/** A channel row `c` as `ChannelJson` reads it. */
export const CHANNEL_JSON = `json_build_object('id', c.id::text, 'type', c.type, 'name', c.name,
  'position', c.position, 'parent_id', c.parent_id::text, 'topic', c.topic, 'nsfw', c.nsfw,
  'rate_limit_per_user', c.rate_limit_per_user, 'bitrate', c.bitrate,
  'user_limit', c.user_limit, 'overwrites', c.overwrites)`
/** A member row `m` as `MemberJson` reads it (joined_at truncated to ms, as the driver truncates it). */
export const MEMBER_JSON = `json_build_object('nick', m.nick, 'role_ids', m.role_ids,
  'joined_at', trunc(extract(epoch FROM m.joined_at) * 1000)::bigint)`
/** The roles of guild `g`, by position as `roles` lists them, as a JSON array. */
export const ROLES_OF_GUILD = `(SELECT coalesce(json_agg(${ROLE_JSON} ORDER BY r.position, r.id), '[]'::json)
  FROM guild_roles r WHERE r.guild_id = g.id)`

const { guild_id: _roleGuild, ...roleFields } = Rows.RoleRow.fields
export const RoleJson = Schema.Struct({ ...roleFields, id: Schema.String, bot_id: Schema.NullOr(Schema.String) })
const { guild_id: _channelGuild, ...channelFields } = Rows.ChannelRow.fields
export const ChannelJson = Schema.Struct({
  ...channelFields,
  id: Schema.String,
  parent_id: Schema.NullOr(Schema.String)
})
export const MemberJson = Schema.Struct({
  nick: Schema.NullOr(Schema.String),
  role_ids: Schema.Array(Schema.String),
  joined_at: Schema.Number
})

export const toMember = (
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  member: typeof MemberJson.Type
): Guild.Member => ({
  guildId,
  userId,
  nick: member.nick,
  roleIds: member.role_ids.map((roleId) => Snowflake.Snowflake.make(roleId)),
  joinedAt: DateTime.fromDateUnsafe(new Date(member.joined_at))
})

/** The row mappers' answer for an aggregate's role or channel: its text ids read as the row's. */
export const toRole = (guildId: Snowflake.Snowflake, role: typeof RoleJson.Type): Guild.Role =>
  Rows.toRole({
    ...role,
    id: BigInt(role.id),
    guild_id: BigInt(guildId),
    bot_id: role.bot_id === null ? null : BigInt(role.bot_id)
  })

export const toChannel = (guildId: Snowflake.Snowflake, channel: typeof ChannelJson.Type): Guild.Channel =>
  Rows.toChannel({
    ...channel,
    id: BigInt(channel.id),
    guild_id: BigInt(guildId),
    parent_id: channel.parent_id === null ? null : BigInt(channel.parent_id)
  })
