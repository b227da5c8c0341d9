/**
 * The GuildsRepo contract's guilds: creation under the per-user cap, update, transfer, removal, a
 * user's guilds and member counts.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type Guild, MAX_GUILDS_PER_USER } from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import {
  arrange,
  ascending,
  at,
  type GuildsRepoIt,
  guildView,
  ids,
  memberView,
  newBan,
  newChannel,
  newGuild,
  newInvite,
  newMember,
  newRole,
  now,
  oddId,
  race,
  some,
  user,
  userInGuilds
} from "./GuildsRepoFixtures.ts"

export const guildsContract = (it: GuildsRepoIt) => {
  it.effect("creates a guild with its @everyone role, channels and owner, and reads them back", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* user("guild_owner")
      const created = yield* newGuild(owner, { name: "Вече" })
      yield* repo.create(created, MAX_GUILDS_PER_USER)
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

  it.effect("memberSnapshot answers what find, member, roles, channels and memberCount answer, in one read", () =>
    Effect.gen(function* () {
      const { repo, owner, guildId, textId } = yield* arrange('Снимок "quoted" \\ guild')
      const bot = yield* user("snapshot_bot")
      const managed = yield* newRole(guildId, {
        name: "бот's role",
        permissions: (1n << 62n) | 8n,
        position: 2,
        color: 0xffaa00,
        hoist: true,
        mentionable: true,
        managed: true,
        botId: bot
      })
      const plain = yield* newRole(guildId, { name: "plain", position: 1 })
      yield* repo.createRole(managed)
      yield* repo.createRole(plain)
      const category = yield* newChannel(guildId, { type: 4, name: "category", position: 0 })
      yield* repo.createChannel(category)
      yield* repo.createChannel(
        yield* newChannel(guildId, {
          name: "hidden",
          position: 3,
          parentId: category.id,
          topic: 'a "topic" with\nlines',
          nsfw: true,
          rateLimitPerUser: 30,
          bitrate: 64000,
          userLimit: 5,
          overwrites: [
            { id: guildId, type: 0, allow: 0n, deny: 1n << 10n },
            { id: managed.id, type: 0, allow: (1n << 40n) | 1024n, deny: 0n }
          ]
        })
      )
      const member = yield* user("snapshot_member")
      // `now` has milliseconds: read back as the other reads read them
      yield* repo.join(
        newMember(guildId, member, { nick: "ник", roleIds: [managed.id, plain.id], joinedAt: at(2) }),
        MAX_GUILDS_PER_USER
      )
      for (const userId of [owner, member]) {
        const snapshot = Option.getOrThrow(yield* repo.memberSnapshot(guildId, userId))
        expect(guildView(snapshot.guild)).toEqual(some(yield* repo.find(guildId), guildView))
        expect(memberView(snapshot.member)).toEqual(some(yield* repo.member(guildId, userId), memberView))
        expect(snapshot.roles).toEqual(yield* repo.roles(guildId))
        expect(snapshot.channels).toEqual(yield* repo.channels(guildId))
        expect(snapshot.memberCount).toBe(yield* repo.memberCount(guildId))
      }
      const snapshot = Option.getOrThrow(yield* repo.memberSnapshot(guildId, member))
      expect(snapshot.memberCount).toBe(2)
      expect(snapshot.roles.map((role) => role.id)).toContain(managed.id)
      expect(snapshot.channels.map((channel) => channel.id)).toContain(textId)
      expect(memberView(snapshot.member)).toEqual(
        memberView(newMember(guildId, member, { nick: "ник", roleIds: [managed.id, plain.id], joinedAt: at(2) }))
      )
      // not a member, or no such guild: nothing
      expect(Option.isNone(yield* repo.memberSnapshot(guildId, bot))).toBe(true)
      expect(Option.isNone(yield* repo.memberSnapshot(yield* ids.next, owner))).toBe(true)
    })
  )

  it.effect("a user reaches at most 100 guilds, even with concurrent creations", () =>
    Effect.gen(function* () {
      const repo = yield* GuildsRepo
      const owner = yield* userInGuilds(MAX_GUILDS_PER_USER - 3)
      const attempts = yield* Effect.all(Array.from({ length: 6 }, (_, i) => newGuild(owner, { name: `race${i}` })))
      const { succeeded, failed } = yield* race(attempts.map((created) => repo.create(created, MAX_GUILDS_PER_USER)))
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
      yield* repo.join(newMember(guildId, heir), MAX_GUILDS_PER_USER)
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
      yield* repo.join(newMember(guildId, member), MAX_GUILDS_PER_USER)
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
      yield* repo.create(other, MAX_GUILDS_PER_USER)
      const member = yield* user()
      const banned = yield* user()
      const role = yield* newRole(guildId)
      const channel = yield* newChannel(guildId)
      const invite = newInvite(guildId, textId)
      yield* repo.createRole(role)
      yield* repo.createChannel(channel)
      yield* repo.join(newMember(guildId, member, { roleIds: [role.id] }), MAX_GUILDS_PER_USER)
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
      yield* repo.join(newMember(second.guildId, joiner, { joinedAt: at(5) }), MAX_GUILDS_PER_USER)
      yield* repo.join(newMember(third.guildId, joiner, { joinedAt: at(1) }), MAX_GUILDS_PER_USER)
      yield* repo.join(newMember(first.guildId, joiner, { joinedAt: at(3) }), MAX_GUILDS_PER_USER)
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
        yield* repo.create(created, MAX_GUILDS_PER_USER)
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
      expect(yield* repo.join(newMember(guildId, a), MAX_GUILDS_PER_USER)).toBe(true)
      expect(yield* repo.join(newMember(guildId, b), MAX_GUILDS_PER_USER)).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(3)
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(true)
      expect(yield* repo.join(newMember(guildId, a), MAX_GUILDS_PER_USER)).toBe(false)
      expect(yield* repo.memberCount(guildId)).toBe(3)
      expect(Option.isSome(yield* repo.removeMember(guildId, b))).toBe(true)
      expect(Option.isNone(yield* repo.removeMember(guildId, b))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(Option.isNone(yield* repo.ban(newBan(guildId, c, owner)))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(Option.isSome(yield* repo.ban(newBan(guildId, a, owner)))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(1)
      expect(yield* repo.ownsGuildsWithOthers(owner)).toBe(false)
      const unknown = yield* ids.next
      const counts = yield* repo.memberCounts([guildId, other.guildId, unknown])
      expect(counts.get(guildId)).toBe(1)
      expect(counts.get(other.guildId)).toBe(1)
      // An unknown guild is either left out or counted as 0.
      expect(counts.get(unknown) ?? 0).toBe(0)
      // Names with the counts, in one read; an unknown guild is left out.
      const names = yield* Effect.all([repo.find(guildId), repo.find(other.guildId)])
      const summaries = yield* repo.summaries([guildId, other.guildId, unknown])
      expect([...summaries].sort(([x], [y]) => (x < y ? -1 : 1))).toEqual(
        [
          [guildId, { name: Option.getOrThrow(names[0]).name, members: 1 }],
          [other.guildId, { name: Option.getOrThrow(names[1]).name, members: 1 }]
        ].sort(([x], [y]) => (String(x) < String(y) ? -1 : 1))
      )
      expect((yield* repo.summaries([])).size).toBe(0)
      expect(yield* repo.memberCount(unknown)).toBe(0)
      yield* repo.remove(guildId)
      expect(yield* repo.memberCount(guildId)).toBe(0)
    })
  )
}
