/**
 * The guild tables' rows as they are written: whole records for inserts and, for each patch, the
 * columns it sets (permission bit sets as decimal text, lists as JSON).
 */
import type { Guild } from "@veche/guilds"
import { DateTime } from "effect"

export const date = DateTime.toDateUtc

const overwritesJson = (overwrites: ReadonlyArray<Guild.Overwrite>) =>
  JSON.stringify(
    overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }))
  )

export const guildRecord = (guild: Guild.Guild, memberCount: number) => ({
  id: guild.id,
  name: guild.name,
  icon: guild.icon,
  banner: guild.banner,
  description: guild.description,
  owner_id: guild.ownerId,
  verification_level: guild.verificationLevel,
  default_message_notifications: guild.defaultMessageNotifications,
  explicit_content_filter: guild.explicitContentFilter,
  system_channel_id: guild.systemChannelId,
  rules_channel_id: guild.rulesChannelId,
  public_updates_channel_id: guild.publicUpdatesChannelId,
  afk_channel_id: guild.afkChannelId,
  afk_timeout: guild.afkTimeout,
  preferred_locale: guild.preferredLocale,
  features: JSON.stringify(guild.features),
  member_count: memberCount,
  created_at: date(guild.createdAt)
})
export const roleRecord = (role: Guild.Role) => ({
  id: role.id,
  guild_id: role.guildId,
  name: role.name,
  permissions: role.permissions.toString(),
  position: role.position,
  color: role.color,
  hoist: role.hoist,
  mentionable: role.mentionable,
  managed: role.managed,
  bot_id: role.botId
})
export const channelRecord = (channel: Guild.Channel) => ({
  id: channel.id,
  guild_id: channel.guildId,
  type: channel.type,
  name: channel.name,
  position: channel.position,
  parent_id: channel.parentId,
  topic: channel.topic,
  nsfw: channel.nsfw,
  rate_limit_per_user: channel.rateLimitPerUser,
  bitrate: channel.bitrate,
  user_limit: channel.userLimit,
  overwrites: overwritesJson(channel.overwrites)
})
export const memberRecord = (member: Guild.Member) => ({
  guild_id: member.guildId,
  user_id: member.userId,
  nick: member.nick,
  role_ids: JSON.stringify(member.roleIds),
  joined_at: date(member.joinedAt)
})

/** For each patchable field: its column and, when it is not stored as is, how it is stored. */
type Columns<P> = {
  readonly [K in keyof P]-?: readonly [column: string, encode?: (value: Exclude<P[K], undefined>) => unknown]
}
/** The columns a patch sets (absent fields stay as they are). */
export const columnsOf = <P extends object>(patch: P, columns: Columns<P>): Record<string, unknown> => {
  const set: Record<string, unknown> = {}
  for (const key of Object.keys(columns) as Array<keyof P>) {
    const value = patch[key]
    if (value === undefined) continue
    const [column, encode] = columns[key]
    set[column] = encode === undefined ? value : encode(value as Exclude<P[keyof P], undefined>)
  }
  return set
}
export const guildColumns: Columns<Guild.GuildPatch> = {
  name: ["name"],
  icon: ["icon"],
  banner: ["banner"],
  description: ["description"],
  verificationLevel: ["verification_level"],
  defaultMessageNotifications: ["default_message_notifications"],
  explicitContentFilter: ["explicit_content_filter"],
  systemChannelId: ["system_channel_id"],
  rulesChannelId: ["rules_channel_id"],
  publicUpdatesChannelId: ["public_updates_channel_id"],
  afkChannelId: ["afk_channel_id"],
  afkTimeout: ["afk_timeout"],
  preferredLocale: ["preferred_locale"],
  features: ["features", (features) => JSON.stringify(features)]
}
export const roleColumns: Columns<Guild.RolePatch> = {
  name: ["name"],
  permissions: ["permissions", (permissions) => permissions.toString()],
  position: ["position"],
  color: ["color"],
  hoist: ["hoist"],
  mentionable: ["mentionable"]
}
export const channelColumns: Columns<Guild.ChannelPatch> = {
  name: ["name"],
  position: ["position"],
  parentId: ["parent_id"],
  topic: ["topic"],
  nsfw: ["nsfw"],
  rateLimitPerUser: ["rate_limit_per_user"],
  bitrate: ["bitrate"],
  userLimit: ["user_limit"],
  overwrites: ["overwrites", overwritesJson]
}
export const memberColumns: Columns<Guild.MemberPatch> = {
  nick: ["nick"],
  roleIds: ["role_ids", (roleIds) => JSON.stringify(roleIds)]
}
