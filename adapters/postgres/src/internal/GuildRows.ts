/**
 * The guild tables' rows as PostgreSQL answers them: their schemas, decoders (a query or decoding
 * failure is a defect) and the mappers from rows to the domain's records.
 */
import { Guild } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Schema } from "effect"

export const id = (n: bigint) => Snowflake.Snowflake.make(String(n))
export const optionalId = (n: bigint | null) => (n === null ? null : id(n))

export const GuildRow = Schema.Struct({
  id: Schema.BigInt,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  owner_id: Schema.BigInt,
  verification_level: Guild.Guild.fields.verificationLevel,
  default_message_notifications: Guild.Guild.fields.defaultMessageNotifications,
  explicit_content_filter: Guild.Guild.fields.explicitContentFilter,
  system_channel_id: Schema.NullOr(Schema.BigInt),
  rules_channel_id: Schema.NullOr(Schema.BigInt),
  public_updates_channel_id: Schema.NullOr(Schema.BigInt),
  afk_channel_id: Schema.NullOr(Schema.BigInt),
  afk_timeout: Schema.Int,
  preferred_locale: Schema.String,
  features: Schema.Array(Schema.String),
  created_at: Schema.Date
})
export const RoleRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  name: Schema.String,
  permissions: Schema.String,
  position: Schema.Int,
  color: Schema.Int,
  hoist: Schema.Boolean,
  mentionable: Schema.Boolean,
  managed: Schema.Boolean,
  bot_id: Schema.NullOr(Schema.BigInt)
})
export const StoredOverwrite = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals([0, 1]),
  allow: Schema.String,
  deny: Schema.String
})
export const ChannelRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  type: Guild.ChannelType,
  name: Schema.String,
  position: Schema.Int,
  parent_id: Schema.NullOr(Schema.BigInt),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  rate_limit_per_user: Schema.Int,
  bitrate: Schema.Int,
  user_limit: Schema.Int,
  overwrites: Schema.Array(StoredOverwrite)
})
const MemberRow = Schema.Struct({
  guild_id: Schema.BigInt,
  user_id: Schema.BigInt,
  nick: Schema.NullOr(Schema.String),
  role_ids: Schema.Array(Schema.String),
  joined_at: Schema.Date
})
const BanRow = Schema.Struct({
  guild_id: Schema.BigInt,
  user_id: Schema.BigInt,
  reason: Schema.NullOr(Schema.String),
  banned_by: Schema.BigInt,
  created_at: Schema.Date
})
const InviteRow = Schema.Struct({
  code: Schema.String,
  guild_id: Schema.BigInt,
  channel_id: Schema.BigInt,
  inviter_id: Schema.NullOr(Schema.BigInt),
  max_age: Schema.Int,
  max_uses: Schema.Int,
  uses: Schema.Int,
  temporary: Schema.Boolean,
  created_at: Schema.Date
})
const CountRow = Schema.Struct({ n: Schema.Int })
const GuildCountRow = Schema.Struct({ id: Schema.BigInt, n: Schema.Int })
const GuildSummaryRow = Schema.Struct({ id: Schema.BigInt, name: Schema.String, n: Schema.Int })
const ChecksRow = Schema.Struct({ banned: Schema.Boolean, joined: Schema.Int })

/** Rows decoded with their schema; a query or decoding failure is a defect (infrastructure). */
const decode = <S extends Schema.Top>(schema: S) => {
  const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
    Effect.orDie(Effect.flatMap(query, rows)) as Effect.Effect<ReadonlyArray<S["Type"]>>
}
export const guildRows = decode(GuildRow)
export const roleRows = decode(RoleRow)
export const channelRows = decode(ChannelRow)
export const memberRows = decode(MemberRow)
export const banRows = decode(BanRow)
export const inviteRows = decode(InviteRow)
export const countRows = decode(CountRow)
export const guildCountRows = decode(GuildCountRow)
export const guildSummaryRows = decode(GuildSummaryRow)
export const checksRows = decode(ChecksRow)

export const toGuild = (row: typeof GuildRow.Type): Guild.Guild => ({
  id: id(row.id),
  name: row.name,
  icon: row.icon,
  banner: row.banner,
  description: row.description,
  ownerId: id(row.owner_id),
  verificationLevel: row.verification_level,
  defaultMessageNotifications: row.default_message_notifications,
  explicitContentFilter: row.explicit_content_filter,
  systemChannelId: optionalId(row.system_channel_id),
  rulesChannelId: optionalId(row.rules_channel_id),
  publicUpdatesChannelId: optionalId(row.public_updates_channel_id),
  afkChannelId: optionalId(row.afk_channel_id),
  afkTimeout: row.afk_timeout,
  preferredLocale: row.preferred_locale,
  features: row.features,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})
export const toRole = (row: typeof RoleRow.Type): Guild.Role => ({
  id: id(row.id),
  guildId: id(row.guild_id),
  name: row.name,
  permissions: BigInt(row.permissions),
  position: row.position,
  color: row.color,
  hoist: row.hoist,
  mentionable: row.mentionable,
  managed: row.managed,
  botId: optionalId(row.bot_id)
})
export const toChannel = (row: typeof ChannelRow.Type): Guild.Channel => ({
  id: id(row.id),
  guildId: id(row.guild_id),
  type: row.type,
  name: row.name,
  position: row.position,
  parentId: optionalId(row.parent_id),
  topic: row.topic,
  nsfw: row.nsfw,
  rateLimitPerUser: row.rate_limit_per_user,
  bitrate: row.bitrate,
  userLimit: row.user_limit,
  overwrites: row.overwrites.map((o) => ({
    id: Snowflake.Snowflake.make(o.id),
    type: o.type,
    allow: BigInt(o.allow),
    deny: BigInt(o.deny)
  }))
})
export const toMember = (row: typeof MemberRow.Type): Guild.Member => ({
  guildId: id(row.guild_id),
  userId: id(row.user_id),
  nick: row.nick,
  roleIds: row.role_ids.map((roleId) => Snowflake.Snowflake.make(roleId)),
  joinedAt: DateTime.fromDateUnsafe(row.joined_at)
})
export const toBan = (row: typeof BanRow.Type): Guild.Ban => ({
  guildId: id(row.guild_id),
  userId: id(row.user_id),
  reason: row.reason,
  bannedBy: id(row.banned_by),
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})
export const toInvite = (row: typeof InviteRow.Type): Guild.Invite => ({
  code: row.code,
  guildId: id(row.guild_id),
  channelId: id(row.channel_id),
  inviterId: optionalId(row.inviter_id),
  maxAge: row.max_age,
  maxUses: row.max_uses,
  uses: row.uses,
  temporary: row.temporary,
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})
