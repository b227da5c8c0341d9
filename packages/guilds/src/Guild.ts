/**
 * A guild (server) and what it is made of, as the system of record holds them: roles (the
 * @everyone role has the guild's id), channels (text, voice, category) with permission overwrites,
 * members, bans and invites. Wire shapes (the guild object, GUILD_CREATE) are derived from these,
 * never stored.
 */
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import * as Permissions from "./Permissions.ts"

/** The mirrored platform's limits that guard these records. Guilds per user: the free account's (Plus: AccountGuildCap). */
export const MAX_GUILDS_PER_USER = 100
export const MAX_ROLES = 250
export const MAX_CHANNELS = 500
export const MAX_INVITES = 1000

/** How many guilds a joining user may be in at most; null: not capped (bots). */
export type GuildCap = number | null

export const Guild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  ownerId: Snowflake.Snowflake,
  /** 0 none … 4 very high, as on the wire. */
  verificationLevel: Schema.Literals([0, 1, 2, 3, 4]),
  /** 0 all messages, 1 only mentions. */
  defaultMessageNotifications: Schema.Literals([0, 1]),
  /** 0 disabled, 1 members without roles, 2 all members. */
  explicitContentFilter: Schema.Literals([0, 1, 2]),
  systemChannelId: Schema.NullOr(Snowflake.Snowflake),
  /** Community servers: the rules channel and the moderators' updates channel (cannot be deleted). */
  rulesChannelId: Schema.NullOr(Snowflake.Snowflake),
  publicUpdatesChannelId: Schema.NullOr(Snowflake.Snowflake),
  afkChannelId: Schema.NullOr(Snowflake.Snowflake),
  /** Seconds: 60, 300, 900, 1800 or 3600. */
  afkTimeout: Schema.Int,
  preferredLocale: Schema.String,
  /** The platform's feature names (COMMUNITY, DISCOVERABLE, …). */
  features: Schema.Array(Schema.String),
  createdAt: Schema.DateTimeUtc
})
export type Guild = typeof Guild.Type

/** What PATCH /guilds/{id} may change (ownership has its own step: GuildsRepo.transfer). */
export type GuildPatch = Partial<Omit<Guild, "id" | "ownerId" | "createdAt">>

export const Role = Schema.Struct({
  id: Snowflake.Snowflake,
  guildId: Snowflake.Snowflake,
  name: Schema.String,
  /** The permission bit set (see Permissions). */
  permissions: Schema.BigInt,
  position: Schema.Int,
  color: Schema.Int,
  hoist: Schema.Boolean,
  mentionable: Schema.Boolean,
  /** Held by an integration (a bot's role): not assignable by hand. */
  managed: Schema.Boolean,
  /** The bot whose role this is (managed roles only). */
  botId: Schema.NullOr(Snowflake.Snowflake)
})
export type Role = typeof Role.Type

/** The @everyone role a guild starts with: it has the guild's id, the bottom place and the default permissions. */
export const everyoneRole = (guildId: Snowflake.Snowflake): Role => ({
  id: guildId,
  guildId,
  name: "@everyone",
  permissions: Permissions.DEFAULT_EVERYONE,
  position: 0,
  color: 0,
  hoist: false,
  mentionable: false,
  managed: false,
  botId: null
})

export type RolePatch = Partial<Pick<Role, "name" | "permissions" | "position" | "color" | "hoist" | "mentionable">>

export const Overwrite = Schema.Struct({
  /** A role id (type 0) or a member's user id (type 1). */
  id: Snowflake.Snowflake,
  type: Schema.Literals([0, 1]),
  allow: Schema.BigInt,
  deny: Schema.BigInt
})
export type Overwrite = typeof Overwrite.Type

/** 0 text, 2 voice, 4 category, as on the wire. */
export const ChannelType = Schema.Literals([0, 2, 4])
export type ChannelType = typeof ChannelType.Type

export const Channel = Schema.Struct({
  id: Snowflake.Snowflake,
  guildId: Snowflake.Snowflake,
  type: ChannelType,
  name: Schema.String,
  position: Schema.Int,
  /** The category it sits in. */
  parentId: Schema.NullOr(Snowflake.Snowflake),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  /** Slow mode: seconds between a member's messages (0–21600). */
  rateLimitPerUser: Schema.Int,
  /** Voice channels: bits per second and the member cap (0 none). */
  bitrate: Schema.Int,
  userLimit: Schema.Int,
  overwrites: Schema.Array(Overwrite)
})
export type Channel = typeof Channel.Type

export type ChannelPatch = Partial<
  Pick<
    Channel,
    "name" | "position" | "parentId" | "topic" | "nsfw" | "rateLimitPerUser" | "bitrate" | "userLimit" | "overwrites"
  >
>

export const Member = Schema.Struct({
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  nick: Schema.NullOr(Schema.String),
  /** Roles besides @everyone. */
  roleIds: Schema.Array(Snowflake.Snowflake),
  joinedAt: Schema.DateTimeUtc
})
export type Member = typeof Member.Type

export type MemberPatch = Partial<Pick<Member, "nick" | "roleIds">>

export const Ban = Schema.Struct({
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  reason: Schema.NullOr(Schema.String),
  bannedBy: Snowflake.Snowflake,
  createdAt: Schema.DateTimeUtc
})
export type Ban = typeof Ban.Type

export const Invite = Schema.Struct({
  /** 8 characters of [A-Za-z0-9], unique. */
  code: Schema.String,
  guildId: Snowflake.Snowflake,
  channelId: Snowflake.Snowflake,
  inviterId: Schema.NullOr(Snowflake.Snowflake),
  /** Seconds until it expires after creation; 0 never. */
  maxAge: Schema.Int,
  /** How many joins it allows; 0 unlimited. */
  maxUses: Schema.Int,
  uses: Schema.Int,
  /** Membership granted by it is temporary (kept as a flag; kicks on disconnect are the gateway's). */
  temporary: Schema.Boolean,
  createdAt: Schema.DateTimeUtc
})
export type Invite = typeof Invite.Type

/** Everything a new guild starts with, created together. */
export interface NewGuild {
  readonly guild: Guild
  readonly everyone: Role
  readonly channels: ReadonlyArray<Channel>
  readonly owner: Member
}

/** A page of a list ordered by id: at most `limit` after `after` or before `before`. */
export interface Page {
  readonly before?: Snowflake.Snowflake | undefined
  readonly after?: Snowflake.Snowflake | undefined
  readonly limit: number
}
