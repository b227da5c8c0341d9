/**
 * Who may do what in a guild: the caller's place in it (the guild, its roles, their membership and
 * guild-wide permissions, read once per request) and the checks every guild route starts with —
 * membership (50001), a permission (50013), the role hierarchy, and channel permissions with
 * overwrites. Shared by every guild service so that each applies the rules the same way.
 */
import type { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import type { Channel, Guild, Member, Role } from "./Guild.ts"
import { MissingPermission, NoAccess, NoSuchChannel, NoSuchGuild } from "./GuildsErrors.ts"
import type { GuildsRepo } from "./GuildsRepo.ts"
import * as Permissions from "./Permissions.ts"

/** The caller: a user or a bot (bots join by authorisation, never by invitation). */
export interface Actor {
  readonly userId: Snowflake.Snowflake
  readonly bot: boolean
}

/** The caller as a member of a guild. */
export interface Place {
  readonly guild: Guild
  /** By position, @everyone first. */
  readonly roles: ReadonlyArray<Role>
  readonly member: Member
  /** Guild-wide permissions (all of them for the owner and administrators). */
  readonly permissions: bigint
}

type Repo = GuildsRepo["Service"]

const memberContext = (guild: Guild, roles: ReadonlyArray<Role>, member: Member): Permissions.MemberContext => {
  const held = new Set<string>(member.roleIds)
  const everyone = roles.find((role) => role.id === guild.id) ?? { id: guild.id, permissions: Permissions.NONE }
  return {
    guildId: guild.id,
    ownerId: guild.ownerId,
    userId: member.userId,
    everyone,
    roles: roles.filter((role) => held.has(role.id))
  }
}

/** A member's guild-wide permissions. */
export const permissionsOf = (guild: Guild, roles: ReadonlyArray<Role>, member: Member): bigint =>
  Permissions.base(memberContext(guild, roles, member))

/** A member's permissions in a channel (none when they cannot see it). */
export const channelPermissionsOf = (
  guild: Guild,
  roles: ReadonlyArray<Role>,
  member: Member,
  channel: Pick<Channel, "overwrites">
): bigint => Permissions.inChannel(memberContext(guild, roles, member), channel.overwrites)

export const findGuild = (repo: Repo, guildId: Snowflake.Snowflake): Effect.Effect<Guild, NoSuchGuild> =>
  Effect.flatMap(
    repo.find(guildId),
    Option.match({ onNone: () => Effect.fail(new NoSuchGuild()), onSome: Effect.succeed })
  )

/** The caller's place in the guild: 10004 when it does not exist, 50001 when they are not in it. */
export const placeIn = Effect.fnUntraced(function* (repo: Repo, actor: Actor, guildId: Snowflake.Snowflake) {
  const [guild, member, roles] = yield* Effect.all(
    [repo.find(guildId), repo.member(guildId, actor.userId), repo.roles(guildId)],
    {
      concurrency: "unbounded"
    }
  )
  if (Option.isNone(guild)) return yield* new NoSuchGuild()
  if (Option.isNone(member)) return yield* new NoAccess()
  const place: Place = {
    guild: guild.value,
    roles,
    member: member.value,
    permissions: permissionsOf(guild.value, roles, member.value)
  }
  return place
})

/** A guild-wide permission, or 50013. */
export const requirePermission = (
  place: Place,
  flag: bigint,
  name: Permissions.Flag
): Effect.Effect<void, MissingPermission> =>
  Permissions.has(place.permissions, flag) ? Effect.void : Effect.fail(new MissingPermission({ needed: name }))

export const isOwner = (place: Place): boolean => place.guild.ownerId === place.member.userId

/** The highest position among a member's roles (@everyone is 0); the owner stands above all. */
export const topPosition = (guild: Guild, roles: ReadonlyArray<Role>, member: Member): number => {
  if (guild.ownerId === member.userId) return Number.POSITIVE_INFINITY
  const held = new Set<string>(member.roleIds)
  return roles.reduce((top, role) => (held.has(role.id) && role.position > top ? role.position : top), 0)
}

/** The caller may act on a role only below their own highest role. */
export const requireAbove = (place: Place, position: number): Effect.Effect<void, MissingPermission> =>
  topPosition(place.guild, place.roles, place.member) > position
    ? Effect.void
    : Effect.fail(new MissingPermission({ needed: "hierarchy" }))

/** The caller may act on another member only when standing above them; nobody acts on the owner. */
export const requireAboveMember = (place: Place, target: Member): Effect.Effect<void, MissingPermission> =>
  target.userId === place.guild.ownerId
    ? Effect.fail(new MissingPermission({ needed: "hierarchy" }))
    : requireAbove(place, topPosition(place.guild, place.roles, target))

/** Nobody grants what they do not hold (administrators and the owner hold everything). */
export const requireHolds = (place: Place, permissions: bigint): Effect.Effect<void, MissingPermission> =>
  (permissions & ~place.permissions) === 0n ? Effect.void : Effect.fail(new MissingPermission({ needed: "grant" }))

/**
 * A channel and the caller's permissions in it: 10003 when there is no such channel, 50001 when
 * the caller is not in its guild or cannot see it.
 */
export const channelPlace = Effect.fnUntraced(function* (repo: Repo, actor: Actor, channelId: Snowflake.Snowflake) {
  // One read (one statement on PostgreSQL) for the channel, its guild, the roles and the membership;
  // a channel whose guild is gone is no channel, as before.
  const found = yield* repo.channelPlace(channelId, actor.userId)
  if (Option.isNone(found)) return yield* new NoSuchChannel()
  const { channel, guild, roles, member } = found.value
  if (Option.isNone(member)) return yield* new NoAccess()
  const place: Place = { guild, roles, member: member.value, permissions: permissionsOf(guild, roles, member.value) }
  const permissions = channelPermissionsOf(guild, roles, member.value, channel)
  if (!Permissions.has(permissions, Permissions.Flags.ViewChannel)) return yield* new NoAccess()
  return { place, channel, permissions }
})

/** A permission in a channel, or 50013. */
export const requireInChannel = (
  permissions: bigint,
  flag: bigint,
  name: Permissions.Flag
): Effect.Effect<void, MissingPermission> =>
  Permissions.has(permissions, flag) ? Effect.void : Effect.fail(new MissingPermission({ needed: name }))
