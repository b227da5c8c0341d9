/**
 * The port to guilds and their roles, channels and members (its in-memory adapter is
 * `internal/MemoryGuildsStore.ts`). Creating a guild stores all its parts together, and the
 * per-user guild cap is checked in the same step, so concurrent creations or joins never take a
 * user past it.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, type Effect, Layer, type Option } from "effect"
import type {
  Ban,
  Channel,
  ChannelPatch,
  Guild,
  GuildCap,
  GuildPatch,
  Invite,
  Member,
  MemberPatch,
  NewGuild,
  Page,
  Role,
  RolePatch
} from "./Guild.ts"
import type {
  BannedFromGuild,
  ChannelLimitReached,
  GuildLimitReached,
  InviteLimitReached,
  InviteNotFound,
  NoSuchChannel,
  NoSuchGuild,
  RoleLimitReached
} from "./GuildsErrors.ts"
import * as MemoryGuildsStore from "./internal/MemoryGuildsStore.ts"

/**
 * A guild as one of its members receives it on joining (GUILD_CREATE), read in one step: the guild,
 * its roles and channels by position, its member count and the member's own record.
 */
export interface MemberSnapshot {
  readonly guild: Guild
  readonly member: Member
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
  readonly memberCount: number
}

/**
 * A channel with what deciding a user's access to it takes, read in one step: its guild, the
 * guild's roles by position and the user's membership (none when they are not a member).
 */
export interface ChannelPlace {
  readonly channel: Channel
  readonly guild: Guild
  readonly roles: ReadonlyArray<Role>
  readonly member: Option.Option<Member>
}

/**
 * A member taken out of a guild. A bot's managed role belongs to its place in the guild, so it is
 * deleted in the same step (with every reference to it), whatever took the bot out: the ids are
 * those roles, for their GUILD_ROLE_DELETE.
 */
export interface Departure {
  readonly roleIds: ReadonlyArray<Snowflake.Snowflake>
}

/** What a list of guilds shows of each: its name and how many members it has. */
export interface GuildSummary {
  readonly name: string
  readonly members: number
}

export class GuildsRepo extends Context.Service<
  GuildsRepo,
  {
    // --- guilds
    /** Stores a guild with its @everyone role, channels and owner; the owner's guild cap (`cap`) is checked in the same step. */
    readonly create: (created: NewGuild, cap: number) => Effect.Effect<void, GuildLimitReached>
    readonly find: (guildId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Guild>>
    /** None when there is no such guild. */
    readonly update: (guildId: Snowflake.Snowflake, patch: GuildPatch) => Effect.Effect<Option.Option<Guild>>
    /**
     * Hands the guild from `fromOwnerId` to `toUserId` in one conditional step: None (and no change)
     * unless the guild is still owned by `fromOwnerId` and `toUserId` is still a member.
     */
    readonly transfer: (
      guildId: Snowflake.Snowflake,
      fromOwnerId: Snowflake.Snowflake,
      toUserId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<Guild>>
    /** Dissolves the guild with its roles, channels, members, bans and invites; false when absent. */
    readonly remove: (guildId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /** The guilds a user is in, oldest membership first. */
    readonly guildsOf: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /** The guilds a user is in, ordered by guild id, paged by guild id. */
    readonly guildsPage: (userId: Snowflake.Snowflake, page: Page) => Effect.Effect<ReadonlyArray<Guild>>
    /** Whether the user owns a guild with other members. */
    readonly ownsGuildsWithOthers: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /** Members of a guild, read without counting rows (the catalogue sorts by it). 0 when absent. */
    readonly memberCount: (guildId: Snowflake.Snowflake) => Effect.Effect<number>
    readonly memberCounts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
    /** Names and member counts of those of `guildIds` that exist, in one read (the statistics' top). */
    readonly summaries: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, GuildSummary>>
    /**
     * `find`, `member`, `roles`, `channels` and `memberCount` answered together, as one read (one
     * statement on PostgreSQL: a session's GUILD_CREATE for each of its guilds). None when the guild
     * is gone or the user is not a member.
     */
    readonly memberSnapshot: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<MemberSnapshot>>

    // --- roles
    /** Roles by position, @everyone first. */
    readonly roles: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Role>>
    /**
     * Adds a role unless the guild has MAX_ROLES already (checked in the same step). NoSuchGuild:
     * the guild was deleted after the caller's checks.
     */
    readonly createRole: (role: Role) => Effect.Effect<void, RoleLimitReached | NoSuchGuild>
    readonly updateRole: (
      guildId: Snowflake.Snowflake,
      roleId: Snowflake.Snowflake,
      patch: RolePatch
    ) => Effect.Effect<Option.Option<Role>>
    /** Deletes the role and takes it from every member and overwrite; false when absent. */
    readonly deleteRole: (guildId: Snowflake.Snowflake, roleId: Snowflake.Snowflake) => Effect.Effect<boolean>

    // --- channels
    /** Channels by position. */
    readonly channels: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Channel>>
    readonly channel: (channelId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Channel>>
    /**
     * `channel`, then its guild's `find`, `member` and `roles`, answered together as one read (one
     * statement on PostgreSQL: every channel route's access check). None when there is no such
     * channel or its guild is gone.
     */
    readonly channelPlace: (
      channelId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<ChannelPlace>>
    /** Adds a channel unless the guild has MAX_CHANNELS already (checked in the same step). */
    readonly createChannel: (channel: Channel) => Effect.Effect<void, ChannelLimitReached | NoSuchGuild>
    readonly updateChannel: (
      channelId: Snowflake.Snowflake,
      patch: ChannelPatch
    ) => Effect.Effect<Option.Option<Channel>>
    /**
     * Deletes the channel and, in the same step, its invites; channels under a deleted category
     * lose their parent, and guild fields that pointed at it (system, rules, updates, AFK) become
     * null. None when absent.
     */
    readonly deleteChannel: (channelId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Channel>>

    // --- members
    readonly member: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Member>>
    /** Members ordered by user id, after `page.after` (`before` is not used). */
    readonly members: (guildId: Snowflake.Snowflake, page: Page) => Effect.Effect<ReadonlyArray<Member>>
    /**
     * Adds a member in one step that refuses a banned user and, when `cap` is a number (users, not
     * bots), a user in that many guilds already. `false` when they were a member already (nothing changes).
     */
    readonly join: (
      member: Member,
      cap: GuildCap
    ) => Effect.Effect<boolean, GuildLimitReached | BannedFromGuild | NoSuchGuild>
    readonly updateMember: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      patch: MemberPatch
    ) => Effect.Effect<Option.Option<Member>>
    /** None when they were not a member. */
    readonly removeMember: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake
    ) => Effect.Effect<Option.Option<Departure>>

    // --- bans
    /** Records (or replaces) the ban and removes the membership in one step; Some when a member was removed. */
    readonly ban: (ban: Ban) => Effect.Effect<Option.Option<Departure>, NoSuchGuild>
    /** false when there was no ban. */
    readonly unban: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    readonly findBan: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Ban>>
    /** Bans ordered by user id, paged by user id. */
    readonly bans: (guildId: Snowflake.Snowflake, page: Page) => Effect.Effect<ReadonlyArray<Ban>>

    // --- invites
    /**
     * Stores the invite unless the guild has MAX_INVITES live ones (expired and used-up invites
     * do not count and may be purged in the same step). NoSuchGuild / NoSuchChannel: the guild or the
     * channel was deleted after the caller's checks.
     */
    readonly createInvite: (
      invite: Invite,
      now: DateTime.Utc
    ) => Effect.Effect<void, InviteLimitReached | NoSuchGuild | NoSuchChannel>
    /** A live invite (not expired at `now`, not used up). */
    readonly invite: (code: string, now: DateTime.Utc) => Effect.Effect<Option.Option<Invite>>
    /** The guild's live invites, oldest first. */
    readonly invitesOf: (guildId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<ReadonlyArray<Invite>>
    /** None when absent. */
    readonly deleteInvite: (code: string) => Effect.Effect<Option.Option<Invite>>
    /**
     * Joins `userId` through the invite in one step: the invite must be live, then the same checks
     * as `join` (ban, `cap` unless null). A join counts a use; an invite that reaches max uses is
     * gone. An existing member changes nothing and uses nothing (`joined: false`).
     */
    readonly accept: (
      code: string,
      userId: Snowflake.Snowflake,
      now: DateTime.Utc,
      cap: GuildCap
    ) => Effect.Effect<
      { readonly invite: Invite; readonly member: Member; readonly joined: boolean },
      InviteNotFound | GuildLimitReached | BannedFromGuild
    >
  }
>()("@veche/guilds/GuildsRepo") {
  static readonly layerMemory: Layer.Layer<GuildsRepo> = Layer.effect(GuildsRepo, MemoryGuildsStore.make)
}

type Part<K extends keyof GuildsRepo["Service"]> = Pick<GuildsRepo["Service"], K>

/**
 * The port's parts, as its adapters build it: each adapter (memory, PostgreSQL) makes one object
 * per part and spreads them into the service, so both split it the same way.
 */
export type GuildsAndMembersPart = Part<
  | "create"
  | "find"
  | "update"
  | "transfer"
  | "remove"
  | "guildsOf"
  | "guildsPage"
  | "ownsGuildsWithOthers"
  | "memberCount"
  | "memberCounts"
  | "summaries"
  | "memberSnapshot"
  | "member"
  | "members"
  | "join"
  | "updateMember"
  | "removeMember"
>
export type RolesPart = Part<"roles" | "createRole" | "updateRole" | "deleteRole">
export type ChannelsPart = Part<
  "channels" | "channel" | "channelPlace" | "createChannel" | "updateChannel" | "deleteChannel"
>
export type BansAndInvitesPart = Part<
  "ban" | "unban" | "findBan" | "bans" | "createInvite" | "invite" | "invitesOf" | "deleteInvite" | "accept"
>
