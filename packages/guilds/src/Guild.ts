/**
 * A guild (server) and what it is made of, as the system of record holds them: roles (the
 * @everyone role has the guild's id), channels (text, voice, category) with permission overwrites,
 * and members. Wire shapes (the guild object, GUILD_CREATE) are derived from these, never stored.
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

/** The mirrored platform's limits that guard these records. */
export const MAX_GUILDS_PER_USER = 100
export const MAX_ROLES = 250
export const MAX_CHANNELS = 500

export const Guild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  ownerId: Snowflake.Snowflake,
  /** 0 none … 4 very high, as on the wire. */
  verificationLevel: Schema.Literals([0, 1, 2, 3, 4]),
  systemChannelId: Schema.NullOr(Snowflake.Snowflake),
  createdAt: Schema.DateTimeUtc
})
export type Guild = typeof Guild.Type

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
  managed: Schema.Boolean
})
export type Role = typeof Role.Type

export const Overwrite = Schema.Struct({
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
  parentId: Schema.NullOr(Snowflake.Snowflake),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  overwrites: Schema.Array(Overwrite)
})
export type Channel = typeof Channel.Type

export const Member = Schema.Struct({
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  nick: Schema.NullOr(Schema.String),
  /** Roles besides @everyone. */
  roleIds: Schema.Array(Snowflake.Snowflake),
  joinedAt: Schema.DateTimeUtc
})
export type Member = typeof Member.Type

/** Everything a new guild starts with, created together. */
export interface NewGuild {
  readonly guild: Guild
  readonly everyone: Role
  readonly channels: ReadonlyArray<Channel>
  readonly owner: Member
}
