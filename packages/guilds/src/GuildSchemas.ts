/**
 * The wire shapes of guilds and what they are made of, snake_case exactly as the mirrored platform's
 * API v10 sends them: the guild object, roles, guild channels, members, bans, invites, the partial
 * guild of GET /users/@me/guilds, GUILD_CREATE and the payloads of the gateway dispatches the guilds
 * domain publishes. Fields we do not model carry v10's neutral values (no emojis, no boosts, no MFA
 * requirement); collections we never fill are typed as empty tuples so nothing pretends otherwise.
 * `GuildViews` builds every one of them from the records in `Guild`.
 */
import * as Snowflake from "@veche/platform/Snowflake"
import * as PublicUser from "@veche/users/PublicUser"
import { Schema } from "effect"

/** An ISO 8601 timestamp. */
export const Timestamp = Schema.String.annotate({ description: "ISO 8601 timestamp" })

/** A permission bit set as the wire carries it: the decimal string of an unsigned 64-bit integer. */
export const Permissions = Schema.String.pipe(Schema.check(Schema.isPattern(/^\d{1,20}$/))).annotate({
  description: "Permission bit set, as a decimal string"
})

/** Always empty here: a collection v10 sends that this platform does not model (emojis, threads, …). */
const None = Schema.Tuple([])

/** 0 none … 4 very high. */
export const VerificationLevel = Schema.Literals([0, 1, 2, 3, 4])
/** 0 all messages, 1 only mentions. */
export const DefaultMessageNotifications = Schema.Literals([0, 1])
/** 0 disabled, 1 members without roles, 2 all members. */
export const ExplicitContentFilter = Schema.Literals([0, 1, 2])
/** Seconds of inactivity before a voice member is moved to the AFK channel. */
export const AfkTimeout = Schema.Literals([60, 300, 900, 1800, 3600])
export type AfkTimeout = typeof AfkTimeout.Type
export const MfaLevel = Schema.Literals([0, 1])
export const PremiumTier = Schema.Literals([0, 1, 2, 3])
export const NsfwLevel = Schema.Literals([0, 1, 2, 3])

// ---------------------------------------------------------------------------------------------
// Roles

export const RoleColors = Schema.Struct({
  primary_color: Schema.Int,
  secondary_color: Schema.NullOr(Schema.Int),
  tertiary_color: Schema.NullOr(Schema.Int)
})

/** Present only on roles that have tags; here only a bot's managed role (`bot_id`). */
export const RoleTags = Schema.Struct({
  bot_id: Schema.optionalKey(Snowflake.Snowflake)
})

export const Role = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  color: Schema.Int,
  colors: RoleColors,
  hoist: Schema.Boolean,
  icon: Schema.NullOr(Schema.String),
  unicode_emoji: Schema.NullOr(Schema.String),
  position: Schema.Int,
  permissions: Permissions,
  managed: Schema.Boolean,
  mentionable: Schema.Boolean,
  flags: Schema.Int,
  tags: Schema.optionalKey(RoleTags)
})
export type Role = typeof Role.Type

// ---------------------------------------------------------------------------------------------
// Guild

/** The full guild object (GET/PATCH /guilds/{id}, POST /guilds, GUILD_UPDATE). */
export const Guild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  splash: Schema.NullOr(Schema.String),
  discovery_splash: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  owner_id: Snowflake.Snowflake,
  afk_channel_id: Schema.NullOr(Snowflake.Snowflake),
  afk_timeout: AfkTimeout,
  widget_enabled: Schema.Boolean,
  widget_channel_id: Schema.NullOr(Snowflake.Snowflake),
  verification_level: VerificationLevel,
  default_message_notifications: DefaultMessageNotifications,
  explicit_content_filter: ExplicitContentFilter,
  roles: Schema.Array(Role),
  emojis: None,
  stickers: None,
  features: Schema.Array(Schema.String),
  mfa_level: MfaLevel,
  application_id: Schema.NullOr(Snowflake.Snowflake),
  system_channel_id: Schema.NullOr(Snowflake.Snowflake),
  system_channel_flags: Schema.Int,
  rules_channel_id: Schema.NullOr(Snowflake.Snowflake),
  public_updates_channel_id: Schema.NullOr(Snowflake.Snowflake),
  safety_alerts_channel_id: Schema.NullOr(Snowflake.Snowflake),
  max_presences: Schema.NullOr(Schema.Int),
  max_members: Schema.Int,
  max_video_channel_users: Schema.Int,
  max_stage_video_channel_users: Schema.Int,
  vanity_url_code: Schema.NullOr(Schema.String),
  premium_tier: PremiumTier,
  premium_subscription_count: Schema.Int,
  premium_progress_bar_enabled: Schema.Boolean,
  preferred_locale: Schema.String,
  nsfw_level: NsfwLevel,
  hub_type: Schema.Null,
  incidents_data: Schema.Null,
  /** Only with `?with_counts=true`. */
  approximate_member_count: Schema.optionalKey(Schema.Int),
  approximate_presence_count: Schema.optionalKey(Schema.Int)
})
export type Guild = typeof Guild.Type

/** An entry of GET /users/@me/guilds. */
export const PartialGuild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  /** The caller owns it. */
  owner: Schema.Boolean,
  /** The caller's guild-wide permissions. */
  permissions: Permissions,
  features: Schema.Array(Schema.String),
  /** Only with `?with_counts=true`. */
  approximate_member_count: Schema.optionalKey(Schema.Int),
  approximate_presence_count: Schema.optionalKey(Schema.Int)
})
export type PartialGuild = typeof PartialGuild.Type

// ---------------------------------------------------------------------------------------------
// Channels

export const Overwrite = Schema.Struct({
  /** A role id (type 0) or a member's user id (type 1). */
  id: Snowflake.Snowflake,
  type: Schema.Literals([0, 1]),
  allow: Permissions,
  deny: Permissions
})
export type Overwrite = typeof Overwrite.Type

/** The fields every guild channel carries. */
const channelBase = {
  id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake,
  name: Schema.String,
  position: Schema.Int,
  permission_overwrites: Schema.Array(Overwrite),
  flags: Schema.Int
}

/** Type 0. */
export const TextChannel = Schema.Struct({
  ...channelBase,
  type: Schema.Literal(0),
  parent_id: Schema.NullOr(Snowflake.Snowflake),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  rate_limit_per_user: Schema.Int,
  last_message_id: Schema.NullOr(Snowflake.Snowflake)
})
export type TextChannel = typeof TextChannel.Type

/** Type 2 (voice channels have a text chat too, hence the slow mode and last message). */
export const VoiceChannel = Schema.Struct({
  ...channelBase,
  type: Schema.Literal(2),
  parent_id: Schema.NullOr(Snowflake.Snowflake),
  nsfw: Schema.Boolean,
  rate_limit_per_user: Schema.Int,
  last_message_id: Schema.NullOr(Snowflake.Snowflake),
  bitrate: Schema.Int,
  user_limit: Schema.Int,
  /** null: automatic. */
  rtc_region: Schema.NullOr(Schema.String)
})
export type VoiceChannel = typeof VoiceChannel.Type

/** Type 4: categories sit at the top level. */
export const CategoryChannel = Schema.Struct({
  ...channelBase,
  type: Schema.Literal(4),
  parent_id: Schema.Null
})
export type CategoryChannel = typeof CategoryChannel.Type

/** A guild channel (GET /channels/{id}, the guild's channel list, CHANNEL_CREATE/UPDATE/DELETE). */
export const Channel = Schema.Union([TextChannel, VoiceChannel, CategoryChannel])
export type Channel = typeof Channel.Type

// ---------------------------------------------------------------------------------------------
// Members and bans

export const Member = Schema.Struct({
  user: PublicUser.PublicUser,
  nick: Schema.NullOr(Schema.String),
  /** Per-guild avatar and banner (not modelled: always null). */
  avatar: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  /** Role ids besides @everyone. */
  roles: Schema.Array(Snowflake.Snowflake),
  joined_at: Timestamp,
  premium_since: Schema.NullOr(Timestamp),
  deaf: Schema.Boolean,
  mute: Schema.Boolean,
  flags: Schema.Int,
  /** Membership screening not passed yet. */
  pending: Schema.Boolean,
  /** Timeout end. */
  communication_disabled_until: Schema.NullOr(Timestamp)
})
export type Member = typeof Member.Type

export const Ban = Schema.Struct({
  reason: Schema.NullOr(Schema.String),
  user: PublicUser.PublicUser
})
export type Ban = typeof Ban.Type

// ---------------------------------------------------------------------------------------------
// Invites

/** The guild as an invite shows it to someone outside. */
export const InviteGuild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  splash: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  icon: Schema.NullOr(Schema.String),
  features: Schema.Array(Schema.String),
  verification_level: VerificationLevel,
  vanity_url_code: Schema.NullOr(Schema.String),
  nsfw_level: NsfwLevel,
  premium_subscription_count: Schema.Int
})
export type InviteGuild = typeof InviteGuild.Type

export const InviteChannel = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  type: Schema.Literals([0, 2, 4])
})
export type InviteChannel = typeof InviteChannel.Type

const inviteFields = {
  /** 0: a guild invite. */
  type: Schema.Literal(0),
  code: Schema.String,
  guild: InviteGuild,
  channel: InviteChannel,
  /** Absent when the inviter's account is gone. */
  inviter: Schema.optionalKey(PublicUser.PublicUser),
  /** created_at + max_age; null for an invite that never expires. */
  expires_at: Schema.NullOr(Timestamp),
  /** Only with `?with_counts=true`. */
  approximate_member_count: Schema.optionalKey(Schema.Int),
  approximate_presence_count: Schema.optionalKey(Schema.Int)
}

/** GET /invites/{code}, DELETE /invites/{code}. */
export const Invite = Schema.Struct(inviteFields)
export type Invite = typeof Invite.Type

/** An invite with what its guild's managers see (invite lists, POST /channels/{id}/invites). */
export const InviteWithMetadata = Schema.Struct({
  ...inviteFields,
  uses: Schema.Int,
  /** 0: unlimited. */
  max_uses: Schema.Int,
  /** Seconds; 0: never expires. */
  max_age: Schema.Int,
  temporary: Schema.Boolean,
  created_at: Timestamp
})
export type InviteWithMetadata = typeof InviteWithMetadata.Type

/** POST /invites/{code}: the invite, and whether the call made the caller a member. */
export const AcceptedInvite = Schema.Struct({
  ...inviteFields,
  new_member: Schema.Boolean
})
export type AcceptedInvite = typeof AcceptedInvite.Type

// ---------------------------------------------------------------------------------------------
// GUILD_CREATE and the other dispatches

/** The guild as the gateway delivers it to a member (GUILD_CREATE), and as the join route answers. */
export const GuildCreate = Schema.Struct({
  ...Guild.fields,
  joined_at: Timestamp,
  /** More members than the session's large_threshold: the member list is partial. */
  large: Schema.Boolean,
  unavailable: Schema.Literal(false),
  member_count: Schema.Int,
  members: Schema.Array(Member),
  channels: Schema.Array(Channel),
  threads: None,
  presences: None,
  voice_states: None,
  stage_instances: None,
  guild_scheduled_events: None,
  soundboard_sounds: None
})
export type GuildCreate = typeof GuildCreate.Type

/** GUILD_UPDATE: the guild object. */
export const GuildUpdateEvent = Guild
export type GuildUpdateEvent = Guild

/** GUILD_DELETE: `unavailable: true` for an outage; absent when the user left or was removed. */
export const GuildDeleteEvent = Schema.Struct({
  id: Snowflake.Snowflake,
  unavailable: Schema.optionalKey(Schema.Literal(true))
})
export type GuildDeleteEvent = typeof GuildDeleteEvent.Type

/** GUILD_MEMBER_ADD and GUILD_MEMBER_UPDATE: the member and its guild. */
export const GuildMemberEvent = Schema.Struct({ ...Member.fields, guild_id: Snowflake.Snowflake })
export type GuildMemberEvent = typeof GuildMemberEvent.Type

/** GUILD_MEMBER_REMOVE, GUILD_BAN_ADD, GUILD_BAN_REMOVE. */
export const GuildUserEvent = Schema.Struct({ guild_id: Snowflake.Snowflake, user: PublicUser.PublicUser })
export type GuildUserEvent = typeof GuildUserEvent.Type

/** GUILD_ROLE_CREATE, GUILD_ROLE_UPDATE. */
export const GuildRoleEvent = Schema.Struct({ guild_id: Snowflake.Snowflake, role: Role })
export type GuildRoleEvent = typeof GuildRoleEvent.Type

/** GUILD_ROLE_DELETE. */
export const GuildRoleDeleteEvent = Schema.Struct({ guild_id: Snowflake.Snowflake, role_id: Snowflake.Snowflake })
export type GuildRoleDeleteEvent = typeof GuildRoleDeleteEvent.Type

/** CHANNEL_CREATE, CHANNEL_UPDATE, CHANNEL_DELETE: the channel object (it carries guild_id). */
export const ChannelEvent = Channel
export type ChannelEvent = Channel

/** INVITE_CREATE. */
export const InviteCreateEvent = Schema.Struct({
  type: Schema.Literal(0),
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake,
  code: Schema.String,
  created_at: Timestamp,
  expires_at: Schema.NullOr(Timestamp),
  inviter: Schema.optionalKey(PublicUser.PublicUser),
  max_age: Schema.Int,
  max_uses: Schema.Int,
  temporary: Schema.Boolean,
  /** Always 0: the invite was just created. */
  uses: Schema.Literal(0)
})
export type InviteCreateEvent = typeof InviteCreateEvent.Type

/** INVITE_DELETE. */
export const InviteDeleteEvent = Schema.Struct({
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake,
  code: Schema.String
})
export type InviteDeleteEvent = typeof InviteDeleteEvent.Type
