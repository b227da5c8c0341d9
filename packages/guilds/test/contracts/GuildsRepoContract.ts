/**
 * The one behaviour suite every GuildsRepo adapter must pass: on memory in every run, on PostgreSQL
 * when DATABASE_URL is set (guilds refer to users, so users are made first). Everything is checked
 * through the port only; ids are unique per run, so the tests share one store without colliding.
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { insertUser } from "../../../users/test/support/TestUsers.ts"
import {
  type Ban,
  type Channel,
  everyoneRole,
  type Guild,
  type Invite,
  MAX_CHANNELS,
  MAX_GUILDS_PER_USER,
  MAX_INVITES,
  MAX_ROLES,
  type Member,
  type NewGuild,
  type Role
} from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import * as Permissions from "../../src/Permissions.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(20))
const now = DateTime.makeUnsafe(Math.floor(Date.now()))
const millis = DateTime.toEpochMillis
/** `now` moved by some seconds. */
const at = (seconds: number) => DateTime.makeUnsafe(millis(now) + seconds * 1000)

// --- ids whose text order and numeric order disagree

let odd = 0
/**
 * Ids of 19 and 18 digits in turn (1000…, 900…), so sorting them as text gives a different order
 * than sorting them as numbers. The generator never mints these: its ids are of the current time
 * (≈ 1.4e18 and up) or, under a test clock at 0, small.
 */
const oddId = (): Snowflake.Snowflake => {
  odd += 1
  const base = odd % 2 === 1 ? 1_000_000_000_000_000_000n : 900_000_000_000_000_000n
  return Snowflake.Snowflake.make(String(base + BigInt(odd)))
}
const numeric = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)
const ascending = (list: ReadonlyArray<Snowflake.Snowflake>) => [...list].sort(numeric)

// --- invite codes: 8 characters of [A-Za-z0-9], a random run prefix and a counter

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
const runTag = Array.from({ length: 3 }, () => ALPHABET.charAt(Math.floor(Math.random() * 62))).join("")
let codes = 0
const nextCode = () => {
  let n = ++codes
  let digits = ""
  for (let i = 0; i < 5; i++) {
    digits = ALPHABET.charAt(n % 62) + digits
    n = Math.floor(n / 62)
  }
  return runTag + digits
}

// --- arrangements

const user = (prefix = "guild_user") => insertUser(ids, prefix)
/** A user with a chosen id (an `oddId`). */
const userWithId = (id: Snowflake.Snowflake) => insertUser({ workerId: 20, next: Effect.succeed(id) }, "guild_odd")

const newGuild = Effect.fnUntraced(function* (
  ownerId: Snowflake.Snowflake,
  options: { readonly name?: string; readonly id?: Snowflake.Snowflake } = {}
) {
  const guildId = options.id ?? (yield* ids.next)
  const text = yield* ids.next
  const created: NewGuild & { readonly textId: Snowflake.Snowflake } = {
    textId: text,
    guild: {
      id: guildId,
      name: options.name ?? "Guild",
      icon: null,
      banner: null,
      description: null,
      ownerId,
      verificationLevel: 0,
      defaultMessageNotifications: 0,
      explicitContentFilter: 0,
      systemChannelId: text,
      rulesChannelId: null,
      publicUpdatesChannelId: null,
      afkChannelId: null,
      afkTimeout: 300,
      preferredLocale: "en-US",
      features: [],
      createdAt: now
    },
    everyone: everyoneRole(guildId),
    channels: [
      {
        id: text,
        guildId,
        type: 0,
        name: "general",
        position: 0,
        parentId: null,
        topic: null,
        nsfw: false,
        rateLimitPerUser: 0,
        bitrate: 0,
        userLimit: 0,
        overwrites: [{ id: guildId, type: 0, allow: 0n, deny: Permissions.Flags.MentionEveryone }]
      }
    ],
    owner: { guildId, userId: ownerId, nick: null, roleIds: [], joinedAt: now }
  }
  return created
})

/** A fresh owner with a fresh guild. */
const arrange = Effect.fnUntraced(function* (name = "Guild") {
  const repo = yield* GuildsRepo
  const owner = yield* user("guild_owner")
  const created = yield* newGuild(owner, { name })
  yield* repo.create(created)
  return { repo, owner, created, guildId: created.guild.id, textId: created.textId }
})

const newRole = (guildId: Snowflake.Snowflake, fields: Partial<Role> = {}) =>
  Effect.map(
    ids.next,
    (id): Role => ({
      id,
      guildId,
      name: "role",
      permissions: Permissions.Flags.KickMembers,
      position: 1,
      color: 0,
      hoist: false,
      mentionable: false,
      managed: false,
      botId: null,
      ...fields
    })
  )

const newChannel = (guildId: Snowflake.Snowflake, fields: Partial<Channel> = {}) =>
  Effect.map(
    ids.next,
    (id): Channel => ({
      id,
      guildId,
      type: 0,
      name: "chat",
      position: 1,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: 0,
      userLimit: 0,
      overwrites: [],
      ...fields
    })
  )

const newMember = (
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  fields: Partial<Member> = {}
): Member => ({
  guildId,
  userId,
  nick: null,
  roleIds: [],
  joinedAt: now,
  ...fields
})

const newBan = (
  guildId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  bannedBy: Snowflake.Snowflake,
  fields: Partial<Ban> = {}
): Ban => ({ guildId, userId, reason: null, bannedBy, createdAt: now, ...fields })

const newInvite = (
  guildId: Snowflake.Snowflake,
  channelId: Snowflake.Snowflake,
  fields: Partial<Invite> = {}
): Invite => ({
  code: nextCode(),
  guildId,
  channelId,
  inviterId: null,
  maxAge: 0,
  maxUses: 0,
  uses: 0,
  temporary: false,
  createdAt: now,
  ...fields
})

/** `n` arrangement steps, a few at a time (a database pool is small). */
const bulk = <A, E, R>(n: number, f: (i: number) => Effect.Effect<A, E, R>) =>
  Effect.all(
    Array.from({ length: n }, (_, i) => f(i)),
    { concurrency: 8 }
  )

/** Runs the attempts all at once; answers how many succeeded and the tags of the failures. */
const race = <A, E extends { readonly _tag: string }, R>(attempts: ReadonlyArray<Effect.Effect<A, E, R>>) =>
  Effect.map(
    Effect.all(
      attempts.map((attempt) => Effect.result(attempt)),
      { concurrency: "unbounded" }
    ),
    (results) => ({
      succeeded: results.filter((result) => result._tag === "Success").length,
      failed: results.flatMap((result) => (result._tag === "Failure" ? [result.failure._tag] : []))
    })
  )

/** A fresh user who owns `n` guilds (so is a member of `n`). */
const userInGuilds = Effect.fnUntraced(function* (n: number) {
  const repo = yield* GuildsRepo
  const userId = yield* user("guild_many")
  yield* bulk(n, (i) => Effect.flatMap(newGuild(userId, { name: `own${i}` }), repo.create))
  return userId
})

// DateTimes compare by instant: adapters may build equal instants differently.
const guildView = (guild: Guild) => ({ ...guild, createdAt: millis(guild.createdAt) })
const memberView = (member: Member) => ({ ...member, joinedAt: millis(member.joinedAt) })
const banView = (ban: Ban) => ({ ...ban, createdAt: millis(ban.createdAt) })
const inviteView = (invite: Invite) => ({ ...invite, createdAt: millis(invite.createdAt) })
const some = <A, B>(option: Option.Option<A>, view: (a: A) => B) => view(Option.getOrThrow(option))

export const guildsRepoContract = (it: Vitest.MethodsNonLive<GuildsRepo | UsersRepo.UsersRepo>) => {
  // --- guilds

  it.effect("creates a guild with its @everyone role, channels and owner, and reads them back", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* user("guild_owner")
      const created = yield* newGuild(owner, { name: "Вече" })
      yield* repo.create(created)
      expect(some(yield* repo.find(created.guild.id), guildView)).toEqual(guildView(created.guild))
      expect(yield* repo.roles(created.guild.id)).toEqual([created.everyone])
      expect(yield* repo.channels(created.guild.id)).toEqual(created.channels)
      expect(some(yield* repo.member(created.guild.id, owner), memberView)).toEqual(memberView(created.owner))
      expect(yield* repo.memberCount(created.guild.id)).toBe(1)
      expect(yield* repo.guildsOf(owner)).toEqual([created.guild.id])
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(false)
      expect(Option.isNone(yield* repo.find(yield* ids.next))).toBe(true)
    })
  )

  it.effect("a user reaches at most 100 guilds, even with concurrent creations", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* userInGuilds(MAX_GUILDS_PER_USER - 3)
      const attempts = yield* Effect.all(Array.from({ length: 6 }, (_, i) => newGuild(owner, { name: `race${i}` })))
      const { succeeded, failed } = yield* race(attempts.map((created) => repo.create(created)))
      expect(succeeded).toBe(3)
      expect(failed).toEqual(["GuildLimitReached", "GuildLimitReached", "GuildLimitReached"])
      expect(yield* repo.guildsOf(owner)).toHaveLength(MAX_GUILDS_PER_USER)
    })
  )

  it.effect("update changes the given fields and keeps the rest; None for an unknown guild", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const patch = {
        name: "Renamed",
        description: "about",
        verificationLevel: 2,
        explicitContentFilter: 2,
        afkTimeout: 900,
        preferredLocale: "ru",
        features: ["COMMUNITY", "NEWS"]
      } as const
      const updated = yield* repo.update(guildId, patch)
      const expected = guildView({ ...created.guild, ...patch })
      expect(some(updated, guildView)).toEqual(expected)
      expect(some(yield* repo.find(guildId), guildView)).toEqual(expected)
      expect(Option.isNone(yield* repo.update(yield* ids.next, { name: "nobody" }))).toBe(true)
    })
  )

  it.effect("transfer hands the guild to a member while the giver still owns it", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const heir = yield* user()
      yield* repo.join(newMember(guildId, heir), true)
      const moved = yield* repo.transfer(guildId, owner, heir)
      expect(Option.getOrThrow(moved).ownerId).toBe(heir)
      expect(Option.getOrThrow(yield* repo.find(guildId)).ownerId).toBe(heir)
      expect(yield* repo.ownsGuildsWithOthers(heir)).toBe(true)
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(false)
      // Both stay members.
      expect(yield* repo.memberCount(guildId)).toBe(2)
    })
  )

  it.effect("transfer refuses a non-member, a giver who no longer owns the guild and an unknown guild", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const stranger = yield* user()
      const member = yield* user()
      yield* repo.join(newMember(guildId, member), true)
      expect(Option.isNone(yield* repo.transfer(guildId, owner, stranger))).toBe(true)
      expect(Option.isNone(yield* repo.transfer(guildId, member, owner))).toBe(true)
      expect(Option.isNone(yield* repo.transfer(yield* ids.next, owner, member))).toBe(true)
      // A stale second transfer: the first one moved the guild away from `owner`.
      expect(Option.isSome(yield* repo.transfer(guildId, owner, member))).toBe(true)
      expect(Option.isNone(yield* repo.transfer(guildId, owner, member))).toBe(true)
      expect(Option.getOrThrow(yield* repo.find(guildId)).ownerId).toBe(member)
    })
  )

  it.effect("remove dissolves the guild with its roles, channels, members, bans and invites", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId } = yield* arrange()
      const other = yield* newGuild(owner, { name: "kept" })
      yield* repo.create(other)
      const member = yield* user()
      const banned = yield* user()
      const role = yield* newRole(guildId)
      const channel = yield* newChannel(guildId)
      const invite = newInvite(guildId, textId)
      yield* repo.createRole(role)
      yield* repo.createChannel(channel)
      yield* repo.join(newMember(guildId, member, { roleIds: [role.id] }), true)
      yield* repo.ban(newBan(guildId, banned, owner))
      yield* repo.createInvite(invite, now)

      expect(yield* repo.remove(guildId)).toBe(true)
      expect(Option.isNone(yield* repo.find(guildId))).toBe(true)
      expect(yield* repo.roles(guildId)).toEqual([])
      expect(yield* repo.channels(guildId)).toEqual([])
      expect(Option.isNone(yield* repo.channel(textId))).toBe(true)
      expect(Option.isNone(yield* repo.channel(channel.id))).toBe(true)
      expect(Option.isNone(yield* repo.member(guildId, owner))).toBe(true)
      expect(Option.isNone(yield* repo.member(guildId, member))).toBe(true)
      expect(yield* repo.members(guildId, { limit: 100 })).toEqual([])
      expect(yield* repo.memberCount(guildId)).toBe(0)
      expect(Option.isNone(yield* repo.findBan(guildId, banned))).toBe(true)
      expect(yield* repo.bans(guildId, { limit: 100 })).toEqual([])
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
      expect(yield* repo.invitesOf(guildId, now)).toEqual([])
      expect(yield* repo.guildsOf(member)).toEqual([])
      // The owner's other guild is untouched.
      expect(yield* repo.guildsOf(owner)).toEqual([other.guild.id])
      expect(yield* repo.memberCount(other.guild.id)).toBe(1)
      expect(yield* repo.remove(guildId)).toBe(false)
    })
  )

  it.effect("guildsOf lists a user's guilds oldest membership first", () =>
    Effect.gen(function* () {
      const first = yield* arrange("a")
      const second = yield* arrange("b")
      const third = yield* arrange("c")
      const repo = first.repo
      const joiner = yield* user()
      yield* repo.join(newMember(second.guildId, joiner, { joinedAt: at(5) }), true)
      yield* repo.join(newMember(third.guildId, joiner, { joinedAt: at(1) }), true)
      yield* repo.join(newMember(first.guildId, joiner, { joinedAt: at(3) }), true)
      expect(yield* repo.guildsOf(joiner)).toEqual([third.guildId, first.guildId, second.guildId])
      expect(yield* repo.guildsOf(yield* user())).toEqual([])
    })
  )

  it.effect("guildsPage pages a user's guilds by guild id (as numbers), before and after", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* user("guild_pager")
      const guilds: Array<Guild> = []
      for (let i = 0; i < 5; i++) {
        const created = yield* newGuild(owner, { name: `p${i}`, id: oddId() })
        yield* repo.create(created)
        guilds.push(created.guild)
      }
      // A guild the user is not in stays out.
      yield* arrange()
      const sorted = ascending(guilds.map((guild) => guild.id))
      const page = (p: Parameters<typeof repo.guildsPage>[1]) =>
        Effect.map(repo.guildsPage(owner, p), (guilds) => guilds.map((guild) => guild.id))
      expect(yield* page({ limit: 100 })).toEqual(sorted)
      expect(yield* page({ limit: 2 })).toEqual(sorted.slice(0, 2))
      expect(yield* page({ after: sorted[1], limit: 2 })).toEqual(sorted.slice(2, 4))
      expect(yield* page({ after: sorted[3], limit: 5 })).toEqual(sorted.slice(4))
      expect(yield* page({ after: sorted[4], limit: 5 })).toEqual([])
      expect(yield* page({ before: sorted[4], limit: 2 })).toEqual(sorted.slice(2, 4))
      expect(yield* page({ before: sorted[1], limit: 5 })).toEqual(sorted.slice(0, 1))
      // Whole guilds, as find answers them.
      const first = guilds.find((guild) => guild.id === sorted[0])
      expect((yield* repo.guildsPage(owner, { limit: 1 })).map(guildView)).toEqual(first ? [guildView(first)] : [])
    })
  )

  it.effect("memberCount follows joins, leaves, bans and removals", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const other = yield* arrange()
      const [a, b, c] = yield* Effect.all([user(), user(), user()])
      expect(yield* repo.join(newMember(guildId, a), true)).toBe(true)
      expect(yield* repo.join(newMember(guildId, b), true)).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(3)
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(true)
      expect(yield* repo.join(newMember(guildId, a), true)).toBe(false)
      expect(yield* repo.memberCount(guildId)).toBe(3)
      expect(yield* repo.removeMember(guildId, b)).toBe(true)
      expect(yield* repo.removeMember(guildId, b)).toBe(false)
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(yield* repo.ban(newBan(guildId, c, owner))).toBe(false)
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(yield* repo.ban(newBan(guildId, a, owner))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(1)
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(false)
      const unknown = yield* ids.next
      const counts = yield* repo.memberCounts([guildId, other.guildId, unknown])
      expect(counts.get(guildId)).toBe(1)
      expect(counts.get(other.guildId)).toBe(1)
      // An unknown guild is either left out or counted as 0.
      expect(counts.get(unknown) ?? 0).toBe(0)
      expect(yield* repo.memberCount(unknown)).toBe(0)
      yield* repo.remove(guildId)
      expect(yield* repo.memberCount(guildId)).toBe(0)
    })
  )

  // --- roles

  it.effect("roles come by position then id (as numbers), @everyone first", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const roles = yield* Effect.all([
        newRole(guildId, { id: oddId(), position: 2, name: "top" }),
        newRole(guildId, { id: oddId(), position: 1, name: "x" }),
        newRole(guildId, { id: oddId(), position: 1, name: "y" }),
        newRole(guildId, { id: oddId(), position: 1, name: "z", managed: true, botId: yield* user("guild_bot") })
      ])
      for (const role of roles) yield* repo.createRole(role)
      const expected = [created.everyone, ...roles].sort((a, b) => a.position - b.position || numeric(a.id, b.id))
      expect(yield* repo.roles(guildId)).toEqual(expected)
      expect(yield* repo.roles(yield* ids.next)).toEqual([])
    })
  )

  it.effect("updateRole changes a role of the guild; None for an unknown role or another guild's", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const other = yield* arrange()
      const role = yield* newRole(guildId)
      yield* repo.createRole(role)
      const patch = {
        name: "mods",
        permissions: Permissions.Flags.BanMembers | Permissions.Flags.KickMembers,
        position: 3,
        color: 0xff0000,
        hoist: true,
        mentionable: true
      }
      const updated = yield* repo.updateRole(guildId, role.id, patch)
      expect(updated).toEqual(Option.some({ ...role, ...patch }))
      expect(yield* repo.roles(guildId)).toEqual([created.everyone, { ...role, ...patch }])
      expect(Option.isNone(yield* repo.updateRole(guildId, yield* ids.next, { name: "none" }))).toBe(true)
      expect(Option.isNone(yield* repo.updateRole(other.guildId, role.id, { name: "stolen" }))).toBe(true)
      expect(yield* repo.roles(guildId)).toEqual([created.everyone, { ...role, ...patch }])
    })
  )

  it.effect("deleteRole takes the role from every member and channel overwrite", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const [doomed, kept] = yield* Effect.all([newRole(guildId, { name: "doomed" }), newRole(guildId)])
      yield* repo.createRole(doomed)
      yield* repo.createRole(kept)
      const member = yield* user()
      yield* repo.join(newMember(guildId, member, { roleIds: [doomed.id, kept.id] }), true)
      yield* repo.updateMember(guildId, owner, { roleIds: [doomed.id] })
      const overwrites = [
        { id: guildId, type: 0 as const, allow: 0n, deny: Permissions.Flags.SendMessages },
        { id: doomed.id, type: 0 as const, allow: Permissions.Flags.SendMessages, deny: 0n },
        { id: kept.id, type: 0 as const, allow: Permissions.Flags.AddReactions, deny: 0n },
        { id: member, type: 1 as const, allow: 0n, deny: Permissions.Flags.AttachFiles }
      ]
      const channel = yield* newChannel(guildId, { overwrites })
      yield* repo.createChannel(channel)

      expect(yield* repo.deleteRole(guildId, doomed.id)).toBe(true)
      expect((yield* repo.roles(guildId)).map((role) => role.id)).toEqual([guildId, kept.id])
      expect(Option.getOrThrow(yield* repo.member(guildId, member)).roleIds).toEqual([kept.id])
      expect(Option.getOrThrow(yield* repo.member(guildId, owner)).roleIds).toEqual([])
      expect(Option.getOrThrow(yield* repo.channel(channel.id)).overwrites).toEqual([
        overwrites[0],
        overwrites[2],
        overwrites[3]
      ])
      expect(yield* repo.deleteRole(guildId, doomed.id)).toBe(false)
      expect(yield* repo.deleteRole(guildId, yield* ids.next)).toBe(false)
    })
  )

  it.effect("a guild holds at most 250 roles, @everyone included", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_ROLES - 1, (i) => Effect.flatMap(newRole(guildId, { name: `r${i}` }), repo.createRole))
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
      const extra = yield* newRole(guildId)
      expect((yield* Effect.flip(repo.createRole(extra)))._tag).toBe("RoleLimitReached")
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
      // Deleting one makes room for one.
      const roles = yield* repo.roles(guildId)
      const last = roles[roles.length - 1]
      expect(yield* repo.deleteRole(guildId, last?.id ?? guildId)).toBe(true)
      yield* repo.createRole(extra)
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
    })
  )

  it.effect("three concurrent role creations at 249 roles: exactly one succeeds", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_ROLES - 2, (i) => Effect.flatMap(newRole(guildId, { name: `r${i}` }), repo.createRole))
      const attempts = yield* Effect.all([newRole(guildId), newRole(guildId), newRole(guildId)])
      const { succeeded, failed } = yield* race(attempts.map(repo.createRole))
      expect(succeeded).toBe(1)
      expect(failed).toEqual(["RoleLimitReached", "RoleLimitReached"])
      expect(yield* repo.roles(guildId)).toHaveLength(MAX_ROLES)
    })
  )

  // --- channels

  it.effect("channels come by position then id (as numbers); channel finds one by id", () =>
    Effect.gen(function* () {
      const { repo, guildId, created } = yield* arrange()
      const category = yield* newChannel(guildId, { id: oddId(), type: 4, name: "cat", position: 1 })
      const channels = [
        category,
        yield* newChannel(guildId, { id: oddId(), position: 0, parentId: category.id, topic: "t", nsfw: true }),
        yield* newChannel(guildId, {
          id: oddId(),
          type: 2,
          position: 1,
          name: "voice",
          bitrate: 64000,
          userLimit: 10
        }),
        yield* newChannel(guildId, { id: oddId(), position: 1, rateLimitPerUser: 30 })
      ]
      for (const channel of channels) yield* repo.createChannel(channel)
      const expected = [...created.channels, ...channels].sort((a, b) => a.position - b.position || numeric(a.id, b.id))
      expect(yield* repo.channels(guildId)).toEqual(expected)
      expect(yield* repo.channel(category.id)).toEqual(Option.some(category))
      expect(Option.isNone(yield* repo.channel(yield* ids.next))).toBe(true)
    })
  )

  it.effect("updateChannel changes a channel; None when absent", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const category = yield* newChannel(guildId, { type: 4 })
      const channel = yield* newChannel(guildId)
      yield* repo.createChannel(category)
      yield* repo.createChannel(channel)
      const patch = {
        name: "renamed",
        position: 7,
        parentId: category.id,
        topic: "a topic",
        nsfw: true,
        rateLimitPerUser: 10,
        overwrites: [{ id: guildId, type: 0 as const, allow: 0n, deny: Permissions.Flags.ViewChannel }]
      }
      expect(yield* repo.updateChannel(channel.id, patch)).toEqual(Option.some({ ...channel, ...patch }))
      expect(yield* repo.channel(channel.id)).toEqual(Option.some({ ...channel, ...patch }))
      expect(Option.isNone(yield* repo.updateChannel(yield* ids.next, { name: "none" }))).toBe(true)
    })
  )

  it.effect("deleteChannel deletes its invites and clears the guild's fields that point at it", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const doomed = yield* newChannel(guildId, { name: "doomed" })
      const voice = yield* newChannel(guildId, { type: 2, name: "afk" })
      yield* repo.createChannel(doomed)
      yield* repo.createChannel(voice)
      yield* repo.update(guildId, {
        systemChannelId: doomed.id,
        rulesChannelId: doomed.id,
        publicUpdatesChannelId: doomed.id,
        afkChannelId: voice.id
      })
      const gone = [newInvite(guildId, doomed.id), newInvite(guildId, doomed.id, { maxUses: 5 })]
      const kept = newInvite(guildId, textId, { createdAt: at(1) })
      for (const invite of [...gone, kept]) yield* repo.createInvite(invite, at(1))

      expect(yield* repo.deleteChannel(doomed.id)).toEqual(Option.some(doomed))
      expect(Option.isNone(yield* repo.channel(doomed.id))).toBe(true)
      expect((yield* repo.channels(guildId)).map((channel) => channel.id)).toEqual([textId, voice.id])
      for (const invite of gone) expect(Option.isNone(yield* repo.invite(invite.code, at(1)))).toBe(true)
      expect((yield* repo.invitesOf(guildId, at(1))).map(inviteView)).toEqual([inviteView(kept)])
      const guild = Option.getOrThrow(yield* repo.find(guildId))
      expect(guild).toMatchObject({
        systemChannelId: null,
        rulesChannelId: null,
        publicUpdatesChannelId: null,
        afkChannelId: voice.id
      })
      expect(Option.isNone(yield* repo.deleteChannel(doomed.id))).toBe(true)
    })
  )

  it.effect("deleting a category leaves its channels in the guild without a parent", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const category = yield* newChannel(guildId, { type: 4, name: "cat", position: 0 })
      const otherCategory = yield* newChannel(guildId, { type: 4, name: "other", position: 1 })
      yield* repo.createChannel(category)
      yield* repo.createChannel(otherCategory)
      const text = yield* newChannel(guildId, { parentId: category.id, position: 2 })
      const voice = yield* newChannel(guildId, { type: 2, parentId: category.id, position: 3 })
      const elsewhere = yield* newChannel(guildId, { parentId: otherCategory.id, position: 4 })
      for (const channel of [text, voice, elsewhere]) yield* repo.createChannel(channel)

      expect(yield* repo.deleteChannel(category.id)).toEqual(Option.some(category))
      expect(yield* repo.channel(text.id)).toEqual(Option.some({ ...text, parentId: null }))
      expect(yield* repo.channel(voice.id)).toEqual(Option.some({ ...voice, parentId: null }))
      expect(yield* repo.channel(elsewhere.id)).toEqual(Option.some(elsewhere))
      expect((yield* repo.channels(guildId)).map((channel) => channel.id).sort(numeric)).toEqual(
        ascending([textId, otherCategory.id, text.id, voice.id, elsewhere.id])
      )
      // The guild's own fields are untouched (its system channel is another one).
      expect(Option.getOrThrow(yield* repo.find(guildId)).systemChannelId).toBe(textId)
    })
  )

  it.effect("a guild holds at most 500 channels", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      yield* bulk(MAX_CHANNELS - 1, (i) => Effect.flatMap(newChannel(guildId, { name: `c${i}` }), repo.createChannel))
      expect(yield* repo.channels(guildId)).toHaveLength(MAX_CHANNELS)
      const extra = yield* newChannel(guildId)
      expect((yield* Effect.flip(repo.createChannel(extra)))._tag).toBe("ChannelLimitReached")
      expect(Option.isNone(yield* repo.channel(extra.id))).toBe(true)
      expect(yield* repo.channels(guildId)).toHaveLength(MAX_CHANNELS)
    })
  )

  // --- members

  it.effect("join adds a member once; a second join changes nothing", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const joiner = yield* user()
      const member = newMember(guildId, joiner, { nick: "first", joinedAt: at(1) })
      expect(yield* repo.join(member, true)).toBe(true)
      expect(some(yield* repo.member(guildId, joiner), memberView)).toEqual(memberView(member))
      expect(yield* repo.join(newMember(guildId, joiner, { nick: "second", joinedAt: at(2) }), true)).toBe(false)
      expect(some(yield* repo.member(guildId, joiner), memberView)).toEqual(memberView(member))
      expect(yield* repo.guildsOf(joiner)).toEqual([guildId])
      expect(Option.isNone(yield* repo.member(guildId, yield* user()))).toBe(true)
    })
  )

  it.effect("updateMember changes nick and roles; None for a non-member", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const role = yield* newRole(guildId)
      yield* repo.createRole(role)
      const joiner = yield* user()
      const member = newMember(guildId, joiner)
      yield* repo.join(member, true)
      const changed = yield* repo.updateMember(guildId, joiner, { nick: "Ник", roleIds: [role.id] })
      expect(some(changed, memberView)).toEqual(memberView({ ...member, nick: "Ник", roleIds: [role.id] }))
      const cleared = yield* repo.updateMember(guildId, joiner, { nick: null })
      expect(some(cleared, memberView)).toEqual(memberView({ ...member, nick: null, roleIds: [role.id] }))
      expect(some(yield* repo.member(guildId, joiner), memberView)).toEqual(
        memberView({ ...member, roleIds: [role.id] })
      )
      expect(Option.isNone(yield* repo.updateMember(guildId, yield* user(), { nick: "x" }))).toBe(true)
    })
  )

  it.effect("removeMember: true when they were a member, then false", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const joiner = yield* user()
      yield* repo.join(newMember(guildId, joiner), true)
      expect(yield* repo.removeMember(guildId, joiner)).toBe(true)
      expect(Option.isNone(yield* repo.member(guildId, joiner))).toBe(true)
      expect(yield* repo.guildsOf(joiner)).toEqual([])
      expect(yield* repo.removeMember(guildId, joiner)).toBe(false)
      // They may come back.
      expect(yield* repo.join(newMember(guildId, joiner), true)).toBe(true)
    })
  )

  it.effect("members come by user id (as numbers), after `after`, at most `limit`", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const joiners = yield* Effect.all(Array.from({ length: 4 }, () => userWithId(oddId())))
      for (const joiner of joiners) yield* repo.join(newMember(guildId, joiner), true)
      const sorted = ascending([owner, ...joiners])
      const page = (p: Parameters<typeof repo.members>[1]) =>
        Effect.map(repo.members(guildId, p), (members) => members.map((member) => member.userId))
      expect(yield* page({ limit: 100 })).toEqual(sorted)
      expect(yield* page({ limit: 2 })).toEqual(sorted.slice(0, 2))
      expect(yield* page({ after: sorted[1], limit: 2 })).toEqual(sorted.slice(2, 4))
      expect(yield* page({ after: sorted[2], limit: 100 })).toEqual(sorted.slice(3))
      expect(yield* page({ after: sorted[4], limit: 100 })).toEqual([])
      const [first] = yield* repo.members(guildId, { limit: 1 })
      expect(first?.guildId).toBe(guildId)
    })
  )

  it.effect("a user in 100 guilds cannot join another; a bot (uncapped) can", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER)
      expect((yield* Effect.flip(repo.join(newMember(guildId, busy), true)))._tag).toBe("GuildLimitReached")
      expect(Option.isNone(yield* repo.member(guildId, busy))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(1)
      expect(yield* repo.join(newMember(guildId, busy), false)).toBe(true)
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER + 1)
    })
  )

  it.effect("a user at 99 guilds joining 5 guilds at once ends in exactly 100", () =>
    Effect.gen(function* () {
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER - 1)
      const targets = yield* Effect.all(Array.from({ length: 5 }, () => arrange()))
      const repo = yield* GuildsRepo
      const { succeeded, failed } = yield* race(targets.map(({ guildId }) => repo.join(newMember(guildId, busy), true)))
      expect(succeeded).toBe(1)
      expect(failed).toEqual(Array.from({ length: 4 }, () => "GuildLimitReached"))
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER)
      const counts = yield* repo.memberCounts(targets.map(({ guildId }) => guildId))
      expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBe(5 + 1)
    })
  )

  // --- bans

  it.effect("ban records the ban and removes the member; banning again replaces the ban", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const target = yield* user()
      yield* repo.join(newMember(guildId, target), true)
      const ban = newBan(guildId, target, owner, { reason: "spam" })
      expect(yield* repo.ban(ban)).toBe(true)
      expect(Option.isNone(yield* repo.member(guildId, target))).toBe(true)
      expect(yield* repo.guildsOf(target)).toEqual([])
      expect(some(yield* repo.findBan(guildId, target), banView)).toEqual(banView(ban))
      const again = newBan(guildId, target, owner, { reason: null, createdAt: at(10) })
      expect(yield* repo.ban(again)).toBe(false)
      expect(some(yield* repo.findBan(guildId, target), banView)).toEqual(banView(again))
      expect((yield* repo.bans(guildId, { limit: 100 })).map(banView)).toEqual([banView(again)])
    })
  )

  it.effect("a banned user can neither join nor accept an invite; unban lets them back", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId } = yield* arrange()
      const target = yield* user()
      const invite = newInvite(guildId, textId)
      yield* repo.createInvite(invite, now)
      yield* repo.ban(newBan(guildId, target, owner))
      expect((yield* Effect.flip(repo.join(newMember(guildId, target), false)))._tag).toBe("BannedFromGuild")
      expect((yield* Effect.flip(repo.accept(invite.code, target, now, true)))._tag).toBe("BannedFromGuild")
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(0)
      expect(Option.isNone(yield* repo.member(guildId, target))).toBe(true)
      expect(yield* repo.unban(guildId, target)).toBe(true)
      expect(Option.isNone(yield* repo.findBan(guildId, target))).toBe(true)
      expect(yield* repo.unban(guildId, target)).toBe(false)
      expect((yield* repo.accept(invite.code, target, now, true)).joined).toBe(true)
    })
  )

  it.effect("bans come by user id (as numbers), paged before and after", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const targets = yield* Effect.all(Array.from({ length: 5 }, () => userWithId(oddId())))
      for (const target of targets) yield* repo.ban(newBan(guildId, target, owner))
      const sorted = ascending(targets)
      const page = (p: Parameters<typeof repo.bans>[1]) =>
        Effect.map(repo.bans(guildId, p), (bans) => bans.map((ban) => ban.userId))
      expect(yield* page({ limit: 100 })).toEqual(sorted)
      expect(yield* page({ limit: 3 })).toEqual(sorted.slice(0, 3))
      expect(yield* page({ after: sorted[1], limit: 2 })).toEqual(sorted.slice(2, 4))
      expect(yield* page({ after: sorted[4], limit: 2 })).toEqual([])
      expect(yield* page({ before: sorted[4], limit: 2 })).toEqual(sorted.slice(2, 4))
      expect(yield* page({ before: sorted[2], limit: 10 })).toEqual(sorted.slice(0, 2))
      expect(yield* page({ before: sorted[0], limit: 10 })).toEqual([])
    })
  )

  // --- invites

  it.effect("createInvite stores an invite; invite and invitesOf answer live ones, oldest first", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId } = yield* arrange()
      const older = newInvite(guildId, textId, { createdAt: at(-30), inviterId: owner, maxAge: 3600, maxUses: 5 })
      const newest = newInvite(guildId, textId, { createdAt: at(-10), temporary: true })
      const middle = newInvite(guildId, textId, { createdAt: at(-20) })
      for (const invite of [newest, older, middle]) yield* repo.createInvite(invite, now)
      expect(some(yield* repo.invite(older.code, now), inviteView)).toEqual(inviteView(older))
      expect((yield* repo.invitesOf(guildId, now)).map(inviteView)).toEqual([older, middle, newest].map(inviteView))
      expect(Option.isNone(yield* repo.invite(nextCode(), now))).toBe(true)
      expect(yield* repo.invitesOf((yield* arrange()).guildId, now)).toEqual([])
    })
  )

  it.effect("an invite is live until created_at + max_age (0 never ends) and while uses < max_uses", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invites = {
        expired: newInvite(guildId, textId, { createdAt: at(-61), maxAge: 60 }),
        endsNow: newInvite(guildId, textId, { createdAt: at(-60), maxAge: 60 }),
        young: newInvite(guildId, textId, { createdAt: at(-59), maxAge: 60 }),
        forever: newInvite(guildId, textId, { createdAt: at(-400 * 24 * 3600), maxAge: 0 }),
        usedUp: newInvite(guildId, textId, { maxUses: 2, uses: 2 }),
        oneLeft: newInvite(guildId, textId, { maxUses: 2, uses: 1 })
      }
      for (const invite of Object.values(invites)) yield* repo.createInvite(invite, invite.createdAt)
      const live = (invite: Invite) => Effect.map(repo.invite(invite.code, now), Option.isSome)
      expect(yield* live(invites.expired)).toBe(false)
      expect(yield* live(invites.endsNow)).toBe(false)
      expect(yield* live(invites.young)).toBe(true)
      expect(yield* live(invites.forever)).toBe(true)
      expect(yield* live(invites.usedUp)).toBe(false)
      expect(yield* live(invites.oneLeft)).toBe(true)
      expect((yield* repo.invitesOf(guildId, now)).map((invite) => invite.code)).toEqual([
        invites.forever.code,
        invites.young.code,
        invites.oneLeft.code
      ])
    })
  )

  it.effect("deleteInvite removes the invite and answers it; None when absent", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invite = newInvite(guildId, textId)
      yield* repo.createInvite(invite, now)
      expect(some(yield* repo.deleteInvite(invite.code), inviteView)).toEqual(inviteView(invite))
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
      expect(Option.isNone(yield* repo.deleteInvite(invite.code))).toBe(true)
      expect(Option.isNone(yield* repo.deleteInvite(nextCode()))).toBe(true)
    })
  )

  it.effect("a guild holds at most 1000 live invites; expired and used-up ones do not count", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const longAgo = at(-7200)
      yield* bulk(10, () =>
        repo.createInvite(newInvite(guildId, textId, { createdAt: longAgo, maxAge: 3600 }), longAgo)
      )
      yield* bulk(5, () => repo.createInvite(newInvite(guildId, textId, { maxUses: 1, uses: 1 }), now))
      yield* bulk(MAX_INVITES - 15, () => repo.createInvite(newInvite(guildId, textId), now))
      // 1000 stored, 985 live: 15 more fit.
      yield* bulk(15, () => repo.createInvite(newInvite(guildId, textId), now))
      const live = yield* repo.invitesOf(guildId, now)
      expect(live).toHaveLength(MAX_INVITES)
      const extra = newInvite(guildId, textId)
      expect((yield* Effect.flip(repo.createInvite(extra, now)))._tag).toBe("InviteLimitReached")
      expect(Option.isNone(yield* repo.invite(extra.code, now))).toBe(true)
      // Another guild is not limited by this one.
      const other = yield* arrange()
      yield* repo.createInvite(newInvite(other.guildId, other.textId), now)
      // Deleting one makes room for one.
      yield* repo.deleteInvite(live[0]?.code ?? "")
      yield* repo.createInvite(extra, now)
      expect(yield* repo.invitesOf(guildId, now)).toHaveLength(MAX_INVITES)
    })
  )

  it.effect("accept joins a user through a live invite and counts a use", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invite = newInvite(guildId, textId, { maxUses: 3 })
      yield* repo.createInvite(invite, now)
      const joiner = yield* user()
      const joinedAt = at(5)
      const result = yield* repo.accept(invite.code, joiner, joinedAt, true)
      const member = newMember(guildId, joiner, { joinedAt })
      expect(result.joined).toBe(true)
      expect(memberView(result.member)).toEqual(memberView(member))
      expect(inviteView(result.invite)).toEqual(inviteView({ ...invite, uses: 1 }))
      expect(some(yield* repo.member(guildId, joiner), memberView)).toEqual(memberView(member))
      expect(Option.getOrThrow(yield* repo.invite(invite.code, joinedAt)).uses).toBe(1)
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(yield* repo.guildsOf(joiner)).toEqual([guildId])
    })
  )

  it.effect("accept by a member changes nothing and uses nothing", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId, created } = yield* arrange()
      const invite = newInvite(guildId, textId, { maxUses: 1 })
      yield* repo.createInvite(invite, now)
      const result = yield* repo.accept(invite.code, owner, at(5), true)
      expect(result.joined).toBe(false)
      expect(memberView(result.member)).toEqual(memberView(created.owner))
      expect(result.invite.uses).toBe(0)
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(0)
      expect(yield* repo.memberCount(guildId)).toBe(1)
    })
  )

  it.effect("accept refuses an unknown, expired or used-up invite with InviteNotFound", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const expired = newInvite(guildId, textId, { createdAt: at(-120), maxAge: 60 })
      const usedUp = newInvite(guildId, textId, { maxUses: 1, uses: 1 })
      yield* repo.createInvite(expired, expired.createdAt)
      yield* repo.createInvite(usedUp, now)
      const joiner = yield* user()
      for (const code of [nextCode(), expired.code, usedUp.code]) {
        expect((yield* Effect.flip(repo.accept(code, joiner, now, true)))._tag).toBe("InviteNotFound")
      }
      expect(Option.isNone(yield* repo.member(guildId, joiner))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(1)
    })
  )

  it.effect("an invite that reaches max_uses is gone", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invite = newInvite(guildId, textId, { maxUses: 2 })
      yield* repo.createInvite(invite, now)
      const [a, b, c] = yield* Effect.all([user(), user(), user()])
      expect((yield* repo.accept(invite.code, a, now, true)).invite.uses).toBe(1)
      const last = yield* repo.accept(invite.code, b, now, true)
      expect(last.joined).toBe(true)
      expect(last.invite.uses).toBe(2)
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
      expect(yield* repo.invitesOf(guildId, now)).toEqual([])
      expect((yield* Effect.flip(repo.accept(invite.code, c, now, true)))._tag).toBe("InviteNotFound")
      expect(Option.isNone(yield* repo.deleteInvite(invite.code))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(3)
    })
  )

  it.effect("a user in 100 guilds cannot accept an invite (the invite is not used); a bot can", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invite = newInvite(guildId, textId)
      yield* repo.createInvite(invite, now)
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER)
      expect((yield* Effect.flip(repo.accept(invite.code, busy, now, true)))._tag).toBe("GuildLimitReached")
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(0)
      expect(Option.isNone(yield* repo.member(guildId, busy))).toBe(true)
      expect((yield* repo.accept(invite.code, busy, now, false)).joined).toBe(true)
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(1)
    })
  )

  it.effect("a user at 99 guilds accepting 5 invites at once ends in exactly 100", () =>
    Effect.gen(function* () {
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER - 1)
      const targets = yield* Effect.all(Array.from({ length: 5 }, () => arrange()))
      const repo = yield* GuildsRepo
      const invites = targets.map(({ guildId, textId }) => newInvite(guildId, textId))
      for (const invite of invites) yield* repo.createInvite(invite, now)
      const { succeeded, failed } = yield* race(invites.map((invite) => repo.accept(invite.code, busy, now, true)))
      expect(succeeded).toBe(1)
      expect(failed).toEqual(Array.from({ length: 4 }, () => "GuildLimitReached"))
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER)
      const uses = yield* Effect.all(invites.map((invite) => repo.invite(invite.code, now)))
      expect(uses.map((found) => Option.getOrThrow(found).uses).reduce((sum, n) => sum + n, 0)).toBe(1)
    })
  )

  it.effect("five users accepting a max_uses=1 invite at once: exactly one joins", () =>
    Effect.gen(function* () {
      const { repo, guildId, textId } = yield* arrange()
      const invite = newInvite(guildId, textId, { maxUses: 1 })
      yield* repo.createInvite(invite, now)
      const joiners = yield* Effect.all(Array.from({ length: 5 }, () => user()))
      const { succeeded, failed } = yield* race(joiners.map((joiner) => repo.accept(invite.code, joiner, now, true)))
      expect(succeeded).toBe(1)
      expect(failed).toEqual(Array.from({ length: 4 }, () => "InviteNotFound"))
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
    })
  )
  // --- a deletion between the domain's checks and the step that adds to the guild

  it.effect("adding a role, channel, member, ban or invite to a deleted guild fails NoSuchGuild, not a defect", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner, textId } = yield* arrange()
      const joiner = yield* user()
      const role = yield* newRole(guildId)
      const channel = yield* newChannel(guildId)
      expect(yield* repo.remove(guildId)).toBe(true)
      const outcomes = yield* Effect.all([
        Effect.flip(repo.createRole(role)),
        Effect.flip(repo.createChannel(channel)),
        Effect.flip(repo.join(newMember(guildId, joiner), true)),
        Effect.flip(repo.ban(newBan(guildId, joiner, owner))),
        Effect.flip(repo.createInvite(newInvite(guildId, textId), now))
      ])
      expect(outcomes.map((error) => error._tag)).toEqual(Array.from({ length: 5 }, () => "NoSuchGuild"))
      expect(yield* repo.roles(guildId)).toEqual([])
      expect(yield* repo.channels(guildId)).toEqual([])
    })
  )

  it.effect("an invite to a deleted channel fails NoSuchChannel (PostgreSQL: not its foreign-key violation)", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const doomed = yield* newChannel(guildId, { name: "doomed" })
      yield* repo.createChannel(doomed)
      yield* repo.deleteChannel(doomed.id)
      const invite = newInvite(guildId, doomed.id)
      expect((yield* Effect.flip(repo.createInvite(invite, now)))._tag).toBe("NoSuchChannel")
      expect(yield* repo.invitesOf(guildId, now)).toEqual([])
    })
  )

  it.effect("roles, invites and joins racing the guild's deletion end in success or NoSuchGuild, never a defect", () =>
    Effect.gen(function* () {
      for (let trial = 0; trial < 5; trial++) {
        const { repo, guildId, textId } = yield* arrange()
        const joiners = yield* Effect.all(Array.from({ length: 3 }, () => user()))
        const roles = yield* Effect.all(Array.from({ length: 3 }, () => newRole(guildId)))
        const attempts: ReadonlyArray<Effect.Effect<unknown, { readonly _tag: string }>> = [
          ...roles.map((role) => repo.createRole(role)),
          ...joiners.map((joiner) => repo.join(newMember(guildId, joiner), true)),
          ...Array.from({ length: 3 }, () => repo.createInvite(newInvite(guildId, textId), now)),
          repo.remove(guildId)
        ]
        const { failed } = yield* race(attempts)
        for (const tag of failed) expect(["NoSuchGuild", "NoSuchChannel"]).toContain(tag)
        expect(Option.isNone(yield* repo.find(guildId))).toBe(true)
      }
    })
  )
}
