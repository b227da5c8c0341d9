/**
 * Records → wire objects: the one place that turns `Guild` records into the v10 shapes of
 * `GuildSchemas` (permissions as decimal strings, dates as ISO strings, unmodelled fields at v10's
 * neutral values). Pure functions; the REST handlers, the gateway's GUILD_CREATE and the dispatches
 * the domain publishes all build their objects here, so the same guild never looks two ways.
 */
import type { Snowflake } from "@veche/platform"
import type { PublicUser } from "@veche/users"
import { DateTime } from "effect"
import type * as Guild from "./Guild.ts"
import * as GuildPremium from "./GuildPremium.ts"
import type * as GuildSchemas from "./GuildSchemas.ts"
import * as Permissions from "./Permissions.ts"

/** `?with_counts=true`: approximate member and online counts. */
export interface Counts {
  readonly members: number
  readonly presences: number
}

/** v10's defaults for limits we do not vary per guild. */
export const MAX_MEMBERS = 500_000
export const MAX_VIDEO_CHANNEL_USERS = 25
export const MAX_STAGE_VIDEO_CHANNEL_USERS = 50
/** The gateway's default large_threshold: a guild with more members is "large". */
export const DEFAULT_LARGE_THRESHOLD = 50

const iso = (date: DateTime.Utc): string => DateTime.formatIso(date)

const withCounts = (counts: Counts | undefined) =>
  counts === undefined ? {} : { approximate_member_count: counts.members, approximate_presence_count: counts.presences }

const AFK_TIMEOUTS: ReadonlyArray<GuildSchemas.AfkTimeout> = [60, 300, 900, 1800, 3600]

/** The record holds any integer; the wire allows five values (the nearest one is sent). */
const afkTimeout = (seconds: number): GuildSchemas.AfkTimeout =>
  AFK_TIMEOUTS.reduce((best, t) => (Math.abs(t - seconds) < Math.abs(best - seconds) ? t : best), 300)

export const role = (role: Guild.Role): GuildSchemas.Role => ({
  id: role.id,
  name: role.name,
  color: role.color,
  colors: { primary_color: role.color, secondary_color: null, tertiary_color: null },
  hoist: role.hoist,
  icon: null,
  unicode_emoji: null,
  position: role.position,
  permissions: Permissions.toWire(role.permissions),
  managed: role.managed,
  mentionable: role.mentionable,
  flags: 0,
  ...(role.managed && role.botId !== null ? { tags: { bot_id: role.botId } } : {})
})

/** The full guild object. `roles` are all of the guild's roles, @everyone included. */
export const guild = (
  guild: Guild.Guild,
  roles: ReadonlyArray<Guild.Role>,
  counts?: Counts | undefined,
  premium: GuildPremium.Premium = GuildPremium.NONE
): GuildSchemas.Guild => ({
  id: guild.id,
  name: guild.name,
  icon: guild.icon,
  splash: null,
  discovery_splash: null,
  banner: guild.banner,
  description: guild.description,
  owner_id: guild.ownerId,
  afk_channel_id: guild.afkChannelId,
  afk_timeout: afkTimeout(guild.afkTimeout),
  widget_enabled: false,
  widget_channel_id: null,
  verification_level: guild.verificationLevel,
  default_message_notifications: guild.defaultMessageNotifications,
  explicit_content_filter: guild.explicitContentFilter,
  roles: roles.map(role),
  emojis: [],
  stickers: [],
  features: guild.features,
  mfa_level: 0,
  application_id: null,
  system_channel_id: guild.systemChannelId,
  system_channel_flags: 0,
  rules_channel_id: guild.rulesChannelId,
  public_updates_channel_id: guild.publicUpdatesChannelId,
  safety_alerts_channel_id: null,
  max_presences: null,
  max_members: MAX_MEMBERS,
  max_video_channel_users: MAX_VIDEO_CHANNEL_USERS,
  max_stage_video_channel_users: MAX_STAGE_VIDEO_CHANNEL_USERS,
  vanity_url_code: null,
  premium_tier: premium.tier,
  premium_subscription_count: premium.count,
  premium_progress_bar_enabled: false,
  preferred_locale: guild.preferredLocale,
  nsfw_level: 0,
  hub_type: null,
  incidents_data: null,
  ...withCounts(counts)
})

/** An entry of GET /users/@me/guilds: `permissions` are the caller's guild-wide ones. */
export const partialGuild = (
  guild: Guild.Guild,
  viewer: { readonly owner: boolean; readonly permissions: bigint },
  counts?: Counts | undefined
): GuildSchemas.PartialGuild => ({
  id: guild.id,
  name: guild.name,
  icon: guild.icon,
  banner: guild.banner,
  owner: viewer.owner,
  permissions: Permissions.toWire(viewer.permissions),
  features: guild.features,
  ...withCounts(counts)
})

export const overwrite = (overwrite: Guild.Overwrite): GuildSchemas.Overwrite => ({
  id: overwrite.id,
  type: overwrite.type,
  allow: Permissions.toWire(overwrite.allow),
  deny: Permissions.toWire(overwrite.deny)
})

/** A guild channel in the shape v10 sends for its type. `lastMessageId` comes from the messages store. */
export const channel = (
  channel: Guild.Channel,
  lastMessageId: Snowflake.Snowflake | null = null
): GuildSchemas.Channel => {
  const base = {
    id: channel.id,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    permission_overwrites: channel.overwrites.map(overwrite),
    flags: 0
  }
  switch (channel.type) {
    case 0:
      return {
        ...base,
        type: 0,
        parent_id: channel.parentId,
        topic: channel.topic,
        nsfw: channel.nsfw,
        rate_limit_per_user: channel.rateLimitPerUser,
        last_message_id: lastMessageId
      }
    case 2:
      return {
        ...base,
        type: 2,
        parent_id: channel.parentId,
        nsfw: channel.nsfw,
        rate_limit_per_user: channel.rateLimitPerUser,
        last_message_id: lastMessageId,
        bitrate: channel.bitrate,
        user_limit: channel.userLimit,
        rtc_region: null
      }
    case 4:
      return { ...base, type: 4, parent_id: null }
  }
}

export const member = (member: Guild.Member, user: PublicUser.PublicUser): GuildSchemas.Member => ({
  user,
  nick: member.nick,
  avatar: null,
  banner: null,
  roles: member.roleIds,
  joined_at: iso(member.joinedAt),
  premium_since: null,
  deaf: false,
  mute: false,
  flags: 0,
  pending: false,
  communication_disabled_until: null
})

export const ban = (ban: Guild.Ban, user: PublicUser.PublicUser): GuildSchemas.Ban => ({
  reason: ban.reason,
  user
})

/** When an invite stops working: created_at + max_age seconds; never (null) when max_age is 0. */
export const expiresAt = (invite: Guild.Invite): DateTime.Utc | null =>
  invite.maxAge === 0 ? null : DateTime.add(invite.createdAt, { seconds: invite.maxAge })

/** What an invite's wire form is made from (`Invites.Shown` is one). */
export interface InviteParts {
  readonly invite: Guild.Invite
  readonly guild: Guild.Guild
  readonly channel: Guild.Channel
  readonly inviter: PublicUser.PublicUser | null
  /** The guild's boosts, which invite cards show as they are now. */
  readonly premium: GuildPremium.Premium
}

export const inviteGuild = (guild: Guild.Guild, premium: GuildPremium.Premium): GuildSchemas.InviteGuild => ({
  id: guild.id,
  name: guild.name,
  splash: null,
  banner: guild.banner,
  description: guild.description,
  icon: guild.icon,
  features: guild.features,
  verification_level: guild.verificationLevel,
  vanity_url_code: null,
  nsfw_level: 0,
  premium_subscription_count: premium.count
})

const inviteFields = (parts: InviteParts, counts: Counts | undefined): GuildSchemas.Invite => {
  const expires = expiresAt(parts.invite)
  return {
    type: 0,
    code: parts.invite.code,
    guild: inviteGuild(parts.guild, parts.premium),
    channel: { id: parts.channel.id, name: parts.channel.name, type: parts.channel.type },
    ...(parts.inviter === null ? {} : { inviter: parts.inviter }),
    expires_at: expires === null ? null : iso(expires),
    ...withCounts(counts)
  }
}

/** What anyone holding the code sees (GET and DELETE /invites/{code}). */
export const invite = (parts: InviteParts, counts?: Counts | undefined): GuildSchemas.Invite =>
  inviteFields(parts, counts)

/** The invite with its usage (invite lists and POST /channels/{id}/invites). */
export const inviteWithMetadata = (
  parts: InviteParts,
  counts?: Counts | undefined
): GuildSchemas.InviteWithMetadata => ({
  ...inviteFields(parts, counts),
  uses: parts.invite.uses,
  max_uses: parts.invite.maxUses,
  max_age: parts.invite.maxAge,
  temporary: parts.invite.temporary,
  created_at: iso(parts.invite.createdAt)
})

/** POST /invites/{code}: the invite, and whether the caller just became a member. */
export const acceptedInvite = (
  parts: InviteParts,
  newMember: boolean,
  counts?: Counts | undefined
): GuildSchemas.AcceptedInvite => ({
  ...inviteFields(parts, counts),
  new_member: newMember
})

export interface GuildCreateInput {
  readonly guild: Guild.Guild
  readonly roles: ReadonlyArray<Guild.Role>
  readonly channels: ReadonlyArray<Guild.Channel>
  /** The members sent along (all of them for a small guild; at least the recipient's own). */
  readonly members: ReadonlyArray<{ readonly member: Guild.Member; readonly user: PublicUser.PublicUser }>
  /** All members of the guild, whatever `members` holds. */
  readonly memberCount: number
  /** When the recipient joined. */
  readonly joinedAt: DateTime.Utc
  /** The session's large_threshold (50–250); defaults to 50 as on the gateway. */
  readonly largeThreshold?: number | undefined
  /** The boost tier and count (none when not given). */
  readonly premium?: GuildPremium.Premium | undefined
}

/**
 * The guild as a member receives it: GUILD_CREATE on the gateway, and the answer of the join route.
 * The single builder both use.
 */
export const guildCreate = (input: GuildCreateInput): GuildSchemas.GuildCreate => ({
  ...guild(input.guild, input.roles, undefined, input.premium),
  joined_at: iso(input.joinedAt),
  large: input.memberCount > (input.largeThreshold ?? DEFAULT_LARGE_THRESHOLD),
  unavailable: false,
  member_count: input.memberCount,
  members: input.members.map(({ member: m, user }) => member(m, user)),
  channels: input.channels.map((c) => channel(c)),
  threads: [],
  presences: [],
  voice_states: [],
  stage_instances: [],
  guild_scheduled_events: [],
  soundboard_sounds: []
})

// ---------------------------------------------------------------------------------------------
// Dispatch payloads (the `d` of each event)

/** GUILD_UPDATE. */
export const guildUpdate = (
  record: Guild.Guild,
  roles: ReadonlyArray<Guild.Role>,
  premium: GuildPremium.Premium = GuildPremium.NONE
): GuildSchemas.GuildUpdateEvent => guild(record, roles, undefined, premium)

/** GUILD_DELETE: `unavailable` only for an outage; a user who left or was removed gets the bare id. */
export const guildDelete = (guildId: Snowflake.Snowflake, unavailable = false): GuildSchemas.GuildDeleteEvent =>
  unavailable ? { id: guildId, unavailable: true } : { id: guildId }

/** GUILD_MEMBER_ADD. */
export const guildMemberAdd = (record: Guild.Member, user: PublicUser.PublicUser): GuildSchemas.GuildMemberEvent => ({
  ...member(record, user),
  guild_id: record.guildId
})

/** GUILD_MEMBER_UPDATE. */
export const guildMemberUpdate = guildMemberAdd

/** GUILD_MEMBER_REMOVE. */
export const guildMemberRemove = (
  guildId: Snowflake.Snowflake,
  user: PublicUser.PublicUser
): GuildSchemas.GuildUserEvent => ({ guild_id: guildId, user })

/** GUILD_BAN_ADD. */
export const guildBanAdd = guildMemberRemove

/** GUILD_BAN_REMOVE. */
export const guildBanRemove = guildMemberRemove

/** GUILD_ROLE_CREATE. */
export const guildRoleCreate = (record: Guild.Role): GuildSchemas.GuildRoleEvent => ({
  guild_id: record.guildId,
  role: role(record)
})

/** GUILD_ROLE_UPDATE. */
export const guildRoleUpdate = guildRoleCreate

/** GUILD_ROLE_DELETE. */
export const guildRoleDelete = (
  guildId: Snowflake.Snowflake,
  roleId: Snowflake.Snowflake
): GuildSchemas.GuildRoleDeleteEvent => ({ guild_id: guildId, role_id: roleId })

/** CHANNEL_CREATE. */
export const channelCreate = (record: Guild.Channel): GuildSchemas.ChannelEvent => channel(record)

/** CHANNEL_UPDATE. */
export const channelUpdate = (
  record: Guild.Channel,
  lastMessageId: Snowflake.Snowflake | null = null
): GuildSchemas.ChannelEvent => channel(record, lastMessageId)

/** CHANNEL_DELETE. */
export const channelDelete = channelUpdate

/** INVITE_CREATE. */
export const inviteCreate = (
  record: Guild.Invite,
  inviter: PublicUser.PublicUser | null
): GuildSchemas.InviteCreateEvent => {
  const expires = expiresAt(record)
  return {
    type: 0,
    channel_id: record.channelId,
    guild_id: record.guildId,
    code: record.code,
    created_at: iso(record.createdAt),
    expires_at: expires === null ? null : iso(expires),
    ...(inviter === null ? {} : { inviter }),
    max_age: record.maxAge,
    max_uses: record.maxUses,
    temporary: record.temporary,
    // A new invite has not been used yet (v10 types the field as the literal 0).
    uses: 0
  }
}

/** INVITE_CREATE (the name the domain's GuildEvents uses). */
export const inviteCreateEvent = inviteCreate

/** INVITE_DELETE. */
export const inviteDelete = (record: Guild.Invite): GuildSchemas.InviteDeleteEvent => ({
  channel_id: record.channelId,
  guild_id: record.guildId,
  code: record.code
})
