/**
 * The port to guilds and their roles, channels and members, and its in-memory adapter. Creating a
 * guild stores all its parts together, and the per-user guild cap is checked in the same step, so
 * concurrent creations or joins never take a user past it.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import {
  type Ban,
  type Channel,
  type ChannelPatch,
  type Guild,
  type GuildPatch,
  type Invite,
  MAX_CHANNELS,
  MAX_GUILDS_PER_USER,
  MAX_INVITES,
  MAX_ROLES,
  type Member,
  type MemberPatch,
  type NewGuild,
  type Page,
  type Role,
  type RolePatch
} from "./Guild.ts"
import {
  BannedFromGuild,
  ChannelLimitReached,
  GuildLimitReached,
  InviteLimitReached,
  InviteNotFound,
  NoSuchChannel,
  NoSuchGuild,
  RoleLimitReached
} from "./GuildsErrors.ts"

export class GuildsRepo extends Context.Service<
  GuildsRepo,
  {
    // --- guilds
    /** Stores a guild with its @everyone role, channels and owner; the owner's guild cap is checked in the same step. */
    readonly create: (created: NewGuild) => Effect.Effect<void, GuildLimitReached>
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
     * Adds a member in one step that refuses a banned user and, when `capped` (users, not bots),
     * a user at MAX_GUILDS_PER_USER. `false` when they were a member already (nothing changes).
     */
    readonly join: (
      member: Member,
      capped: boolean
    ) => Effect.Effect<boolean, GuildLimitReached | BannedFromGuild | NoSuchGuild>
    readonly updateMember: (
      guildId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      patch: MemberPatch
    ) => Effect.Effect<Option.Option<Member>>
    /** false when they were not a member. */
    readonly removeMember: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<boolean>

    // --- bans
    /** Records (or replaces) the ban and removes the membership in one step; true when a member was removed. */
    readonly ban: (ban: Ban) => Effect.Effect<boolean, NoSuchGuild>
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
     * as `join` (ban, cap when `capped`). A join counts a use; an invite that reaches max uses is
     * gone. An existing member changes nothing and uses nothing (`joined: false`).
     */
    readonly accept: (
      code: string,
      userId: Snowflake.Snowflake,
      now: DateTime.Utc,
      capped: boolean
    ) => Effect.Effect<
      { readonly invite: Invite; readonly member: Member; readonly joined: boolean },
      InviteNotFound | GuildLimitReached | BannedFromGuild
    >
  }
>()("@veche/guilds/GuildsRepo") {
  static readonly layerMemory: Layer.Layer<GuildsRepo> = Layer.effect(GuildsRepo, Effect.suspend(makeMemory))
}

// --- the in-memory adapter: the whole store in one Ref, every change one Ref.modify (atomic).

interface State {
  readonly guilds: ReadonlyMap<string, Guild>
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
  readonly members: ReadonlyArray<Member>
  readonly bans: ReadonlyArray<Ban>
  readonly invites: ReadonlyArray<Invite>
}

/** Ids compare as 64-bit numbers, not as text ("9" < "10"). */
const compareIds = (a: string, b: string): number => {
  const x = BigInt(a)
  const y = BigInt(b)
  return x < y ? -1 : x > y ? 1 : 0
}

const byPosition = <T extends { readonly position: number; readonly id: string }>(list: ReadonlyArray<T>) =>
  [...list].sort((a, b) => a.position - b.position || compareIds(a.id, b.id))

const byUser = <T extends { readonly userId: string }>(list: ReadonlyArray<T>) =>
  [...list].sort((a, b) => compareIds(a.userId, b.userId))

/**
 * A page of a list sorted ascending by `key`: after `after` and before `before`; with only
 * `before`, the `limit` entries immediately before it (still ascending).
 */
const paged = <T>(sorted: ReadonlyArray<T>, key: (item: T) => string, page: Page): ReadonlyArray<T> => {
  const after = page.after === undefined ? undefined : BigInt(page.after)
  const before = page.before === undefined ? undefined : BigInt(page.before)
  const limit = Math.max(0, page.limit)
  const within = sorted.filter((item) => {
    const k = BigInt(key(item))
    return (after === undefined || k > after) && (before === undefined || k < before)
  })
  return before !== undefined && after === undefined
    ? within.slice(Math.max(0, within.length - limit))
    : within.slice(0, limit)
}

const isLive = (invite: Invite, now: DateTime.Utc): boolean =>
  (invite.maxAge === 0 ||
    DateTime.toEpochMillis(invite.createdAt) + invite.maxAge * 1000 > DateTime.toEpochMillis(now)) &&
  (invite.maxUses === 0 || invite.uses < invite.maxUses)

const findMember = (s: State, guildId: string, userId: string) =>
  s.members.find((m) => m.guildId === guildId && m.userId === userId)

/** Why a user may not become a member now (the checks `join` and `accept` share), if they may not. */
const refusal = (
  s: State,
  guildId: string,
  userId: string,
  capped: boolean
): GuildLimitReached | BannedFromGuild | undefined => {
  if (s.bans.some((ban) => ban.guildId === guildId && ban.userId === userId)) return new BannedFromGuild()
  if (capped && s.members.filter((m) => m.userId === userId).length >= MAX_GUILDS_PER_USER) {
    return new GuildLimitReached()
  }
  return undefined
}

/**
 * The domain checks the guild first, but a deletion can land between its checks and the step that
 * adds a row to the guild: that step then refuses as the guild being unknown, as PostgreSQL's does.
 */
const noGuild = Effect.fail(new NoSuchGuild())

interface Accepted {
  readonly invite: Invite
  readonly member: Member
  readonly joined: boolean
}

/** Replaces the items matching `is` with `f(item)`; answers the last changed item too. */
const updated = <T>(list: ReadonlyArray<T>, is: (item: T) => boolean, f: (item: T) => T) => {
  let changed: T | undefined
  const next = list.map((item) => {
    if (!is(item)) return item
    changed = f(item)
    return changed
  })
  return [Option.fromNullishOr(changed), next] as const
}

function makeMemory() {
  return Effect.gen(function* () {
    const state = yield* Ref.make<State>({
      guilds: new Map(),
      roles: [],
      channels: [],
      members: [],
      bans: [],
      invites: []
    })
    const read = <A>(f: (s: State) => A) => Effect.map(Ref.get(state), f)
    /** One atomic step that decides its outcome from the state it changes. */
    const step = <A, E>(f: (s: State) => readonly [Effect.Effect<A, E>, State]): Effect.Effect<A, E> =>
      Effect.flatten(Ref.modify(state, (s) => [...f(s)]))
    const countOf = (s: State, guildId: string) => s.members.filter((m) => m.guildId === guildId).length
    const guildsOf = (s: State, userId: string) =>
      s.members
        .filter((m) => m.userId === userId)
        .sort(
          (a, b) =>
            DateTime.toEpochMillis(a.joinedAt) - DateTime.toEpochMillis(b.joinedAt) || compareIds(a.guildId, b.guildId)
        )
        .map((m) => m.guildId)

    return GuildsRepo.of({
      // --- guilds
      create: (created) =>
        step((s) => {
          if (s.members.filter((m) => m.userId === created.owner.userId).length >= MAX_GUILDS_PER_USER) {
            return [Effect.fail(new GuildLimitReached()), s]
          }
          return [
            Effect.void,
            {
              ...s,
              guilds: new Map(s.guilds).set(created.guild.id, created.guild),
              roles: [...s.roles, created.everyone],
              channels: [...s.channels, ...created.channels],
              members: [...s.members, created.owner]
            }
          ]
        }),
      find: (guildId) => read((s) => Option.fromNullishOr(s.guilds.get(guildId))),
      update: (guildId, patch: GuildPatch) =>
        step((s) => {
          const guild = s.guilds.get(guildId)
          if (guild === undefined) return [Effect.succeedNone, s]
          const next: Guild = { ...guild, ...patch }
          return [Effect.succeedSome(next), { ...s, guilds: new Map(s.guilds).set(guildId, next) }]
        }),
      transfer: (guildId, fromOwnerId, toUserId) =>
        step((s) => {
          const guild = s.guilds.get(guildId)
          if (guild === undefined || guild.ownerId !== fromOwnerId || findMember(s, guildId, toUserId) === undefined) {
            return [Effect.succeedNone, s]
          }
          const next: Guild = { ...guild, ownerId: toUserId }
          return [Effect.succeedSome(next), { ...s, guilds: new Map(s.guilds).set(guildId, next) }]
        }),
      remove: (guildId) =>
        step((s) => {
          if (!s.guilds.has(guildId)) return [Effect.succeed(false), s]
          const guilds = new Map(s.guilds)
          guilds.delete(guildId)
          const other = <T extends { readonly guildId: string }>(item: T) => item.guildId !== guildId
          return [
            Effect.succeed(true),
            {
              guilds,
              roles: s.roles.filter(other),
              channels: s.channels.filter(other),
              members: s.members.filter(other),
              bans: s.bans.filter(other),
              invites: s.invites.filter(other)
            }
          ]
        }),
      guildsOf: (userId) => read((s) => guildsOf(s, userId)),
      guildsPage: (userId, page) =>
        read((s) => {
          const joined = s.members.flatMap((m) => {
            const guild = m.userId === userId ? s.guilds.get(m.guildId) : undefined
            return guild === undefined ? [] : [guild]
          })
          return paged(
            joined.sort((a, b) => compareIds(a.id, b.id)),
            (guild) => guild.id,
            page
          )
        }),
      ownsGuildsWithOthers: (userId) =>
        read((s) => s.members.some((m) => m.userId !== userId && s.guilds.get(m.guildId)?.ownerId === userId)),
      memberCount: (guildId) => read((s) => countOf(s, guildId)),
      memberCounts: (guildIds) =>
        read((s) => {
          const counts = new Map<Snowflake.Snowflake, number>()
          for (const guildId of guildIds) if (s.guilds.has(guildId)) counts.set(guildId, countOf(s, guildId))
          return counts
        }),

      // --- roles
      roles: (guildId) => read((s) => byPosition(s.roles.filter((role) => role.guildId === guildId))),
      createRole: (role) =>
        step<void, RoleLimitReached | NoSuchGuild>((s) => {
          if (!s.guilds.has(role.guildId)) return [noGuild, s]
          if (s.roles.filter((r) => r.guildId === role.guildId).length >= MAX_ROLES) {
            return [Effect.fail(new RoleLimitReached()), s]
          }
          return [Effect.void, { ...s, roles: [...s.roles, role] }]
        }),
      updateRole: (guildId, roleId, patch: RolePatch) =>
        step((s) => {
          const [role, roles] = updated(
            s.roles,
            (r) => r.guildId === guildId && r.id === roleId,
            (r) => ({ ...r, ...patch })
          )
          return [Effect.succeed(role), Option.isSome(role) ? { ...s, roles } : s]
        }),
      deleteRole: (guildId, roleId) =>
        step((s) => {
          if (!s.roles.some((r) => r.guildId === guildId && r.id === roleId)) return [Effect.succeed(false), s]
          return [
            Effect.succeed(true),
            {
              ...s,
              roles: s.roles.filter((r) => !(r.guildId === guildId && r.id === roleId)),
              members: s.members.map((m) =>
                m.guildId === guildId && m.roleIds.includes(roleId)
                  ? { ...m, roleIds: m.roleIds.filter((id) => id !== roleId) }
                  : m
              ),
              channels: s.channels.map((c) =>
                c.guildId === guildId && c.overwrites.some((o) => o.type === 0 && o.id === roleId)
                  ? { ...c, overwrites: c.overwrites.filter((o) => !(o.type === 0 && o.id === roleId)) }
                  : c
              )
            }
          ]
        }),

      // --- channels
      channels: (guildId) => read((s) => byPosition(s.channels.filter((channel) => channel.guildId === guildId))),
      channel: (channelId) => read((s) => Option.fromNullishOr(s.channels.find((c) => c.id === channelId))),
      createChannel: (channel) =>
        step<void, ChannelLimitReached | NoSuchGuild>((s) => {
          if (!s.guilds.has(channel.guildId)) return [noGuild, s]
          if (s.channels.filter((c) => c.guildId === channel.guildId).length >= MAX_CHANNELS) {
            return [Effect.fail(new ChannelLimitReached()), s]
          }
          return [Effect.void, { ...s, channels: [...s.channels, channel] }]
        }),
      updateChannel: (channelId, patch: ChannelPatch) =>
        step((s) => {
          const [channel, channels] = updated(
            s.channels,
            (c) => c.id === channelId,
            (c) => ({ ...c, ...patch })
          )
          return [Effect.succeed(channel), Option.isSome(channel) ? { ...s, channels } : s]
        }),
      deleteChannel: (channelId) =>
        step((s) => {
          const channel = s.channels.find((c) => c.id === channelId)
          if (channel === undefined) return [Effect.succeedNone, s]
          const guilds = new Map(s.guilds)
          const guild = guilds.get(channel.guildId)
          if (guild !== undefined) {
            const unset = (id: Snowflake.Snowflake | null) => (id === channelId ? null : id)
            guilds.set(guild.id, {
              ...guild,
              systemChannelId: unset(guild.systemChannelId),
              rulesChannelId: unset(guild.rulesChannelId),
              publicUpdatesChannelId: unset(guild.publicUpdatesChannelId),
              afkChannelId: unset(guild.afkChannelId)
            })
          }
          return [
            Effect.succeedSome(channel),
            {
              ...s,
              guilds,
              channels: s.channels
                .filter((c) => c.id !== channelId)
                .map((c) => (c.parentId === channelId ? { ...c, parentId: null } : c)),
              invites: s.invites.filter((invite) => invite.channelId !== channelId)
            }
          ]
        }),

      // --- members
      member: (guildId, userId) => read((s) => Option.fromNullishOr(findMember(s, guildId, userId))),
      members: (guildId, page) =>
        read((s) =>
          paged(byUser(s.members.filter((m) => m.guildId === guildId)), (m) => m.userId, {
            after: page.after,
            limit: page.limit
          })
        ),
      join: (member, capped) =>
        step<boolean, GuildLimitReached | BannedFromGuild | NoSuchGuild>((s) => {
          if (!s.guilds.has(member.guildId)) return [noGuild, s]
          if (findMember(s, member.guildId, member.userId) !== undefined) return [Effect.succeed(false), s]
          const refused = refusal(s, member.guildId, member.userId, capped)
          if (refused !== undefined) return [Effect.fail(refused), s]
          return [Effect.succeed(true), { ...s, members: [...s.members, member] }]
        }),
      updateMember: (guildId, userId, patch: MemberPatch) =>
        step((s) => {
          const [member, members] = updated(
            s.members,
            (m) => m.guildId === guildId && m.userId === userId,
            (m) => ({ ...m, ...patch })
          )
          return [Effect.succeed(member), Option.isSome(member) ? { ...s, members } : s]
        }),
      removeMember: (guildId, userId) =>
        step((s) => {
          if (findMember(s, guildId, userId) === undefined) return [Effect.succeed(false), s]
          return [
            Effect.succeed(true),
            { ...s, members: s.members.filter((m) => !(m.guildId === guildId && m.userId === userId)) }
          ]
        }),

      // --- bans
      ban: (ban: Ban) =>
        step((s) => {
          if (!s.guilds.has(ban.guildId)) return [noGuild, s]
          const same = (item: { readonly guildId: string; readonly userId: string }) =>
            item.guildId === ban.guildId && item.userId === ban.userId
          const wasMember = s.members.some(same)
          return [
            Effect.succeed(wasMember),
            {
              ...s,
              bans: [...s.bans.filter((b) => !same(b)), ban],
              members: wasMember ? s.members.filter((m) => !same(m)) : s.members
            }
          ]
        }),
      unban: (guildId, userId) =>
        step((s) => {
          const same = (b: Ban) => b.guildId === guildId && b.userId === userId
          if (!s.bans.some(same)) return [Effect.succeed(false), s]
          return [Effect.succeed(true), { ...s, bans: s.bans.filter((b) => !same(b)) }]
        }),
      findBan: (guildId, userId) =>
        read((s) => Option.fromNullishOr(s.bans.find((b) => b.guildId === guildId && b.userId === userId))),
      bans: (guildId, page) =>
        read((s) => paged(byUser(s.bans.filter((b) => b.guildId === guildId)), (b) => b.userId, page)),

      // --- invites
      createInvite: (invite: Invite, now) =>
        step<void, InviteLimitReached | NoSuchGuild | NoSuchChannel>((s) => {
          if (!s.guilds.has(invite.guildId)) return [noGuild, s]
          if (!s.channels.some((c) => c.id === invite.channelId && c.guildId === invite.guildId)) {
            return [Effect.fail(new NoSuchChannel()), s]
          }
          // The guild's dead invites can never be used again: purge them here.
          const kept = s.invites.filter((i) => i.guildId !== invite.guildId || isLive(i, now))
          if (kept.filter((i) => i.guildId === invite.guildId).length >= MAX_INVITES) {
            return [Effect.fail(new InviteLimitReached()), s]
          }
          return [Effect.void, { ...s, invites: [...kept, invite] }]
        }),
      invite: (code, now) =>
        read((s) => Option.filter(Option.fromNullishOr(s.invites.find((i) => i.code === code)), (i) => isLive(i, now))),
      invitesOf: (guildId, now) =>
        read((s) =>
          s.invites
            .filter((i) => i.guildId === guildId && isLive(i, now))
            .sort(
              (a, b) =>
                DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) ||
                (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
            )
        ),
      deleteInvite: (code) =>
        step((s) => {
          const invite = s.invites.find((i) => i.code === code)
          if (invite === undefined) return [Effect.succeedNone, s]
          return [Effect.succeedSome(invite), { ...s, invites: s.invites.filter((i) => i.code !== code) }]
        }),
      accept: (code, userId, now, capped) =>
        step<Accepted, InviteNotFound | GuildLimitReached | BannedFromGuild>((s) => {
          const invite = s.invites.find((i) => i.code === code)
          if (invite === undefined || !isLive(invite, now)) return [Effect.fail(new InviteNotFound()), s]
          const existing = findMember(s, invite.guildId, userId)
          if (existing !== undefined) return [Effect.succeed({ invite, member: existing, joined: false }), s]
          const refused = refusal(s, invite.guildId, userId, capped)
          if (refused !== undefined) return [Effect.fail(refused), s]
          const member: Member = { guildId: invite.guildId, userId, nick: null, roleIds: [], joinedAt: now }
          const used: Invite = { ...invite, uses: invite.uses + 1 }
          const usedUp = used.maxUses !== 0 && used.uses >= used.maxUses
          return [
            Effect.succeed({ invite: used, member, joined: true }),
            {
              ...s,
              members: [...s.members, member],
              invites: usedUp
                ? s.invites.filter((i) => i.code !== code)
                : s.invites.map((i) => (i.code === code ? used : i))
            }
          ]
        })
    })
  })
}
