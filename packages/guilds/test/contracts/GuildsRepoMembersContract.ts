/**
 * The GuildsRepo contract's members: join, update, removal, paging and the per-user guild cap under
 * concurrency.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_GUILDS_PER_USER } from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import {
  arrange,
  ascending,
  at,
  type GuildsRepoIt,
  memberView,
  newMember,
  newRole,
  oddId,
  race,
  some,
  user,
  userInGuilds,
  userWithId
} from "./GuildsRepoFixtures.ts"

export const membersContract = (it: GuildsRepoIt) => {
  it.effect("join adds a member once; a second join changes nothing", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const joiner = yield* user()
      const member = newMember(guildId, joiner, { nick: "first", joinedAt: at(1) })
      expect(yield* repo.join(member, MAX_GUILDS_PER_USER)).toBe(true)
      expect(some(yield* repo.member(guildId, joiner), memberView)).toEqual(memberView(member))
      expect(
        yield* repo.join(newMember(guildId, joiner, { nick: "second", joinedAt: at(2) }), MAX_GUILDS_PER_USER)
      ).toBe(false)
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
      yield* repo.join(member, MAX_GUILDS_PER_USER)
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

  it.effect("removeMember: Some when they were a member, then None", () =>
    Effect.gen(function* () {
      const { repo, guildId } = yield* arrange()
      const joiner = yield* user()
      yield* repo.join(newMember(guildId, joiner), MAX_GUILDS_PER_USER)
      expect(yield* repo.removeMember(guildId, joiner)).toEqual(Option.some({ roleIds: [] }))
      expect(Option.isNone(yield* repo.member(guildId, joiner))).toBe(true)
      expect(yield* repo.guildsOf(joiner)).toEqual([])
      expect(Option.isNone(yield* repo.removeMember(guildId, joiner))).toBe(true)
      // They may come back.
      expect(yield* repo.join(newMember(guildId, joiner), MAX_GUILDS_PER_USER)).toBe(true)
    })
  )

  it.effect("members come by user id (as numbers), after `after`, at most `limit`", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const joiners = yield* Effect.all(Array.from({ length: 4 }, () => userWithId(oddId())))
      for (const joiner of joiners) yield* repo.join(newMember(guildId, joiner), MAX_GUILDS_PER_USER)
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
      expect((yield* Effect.flip(repo.join(newMember(guildId, busy), MAX_GUILDS_PER_USER)))._tag).toBe(
        "GuildLimitReached"
      )
      expect(Option.isNone(yield* repo.member(guildId, busy))).toBe(true)
      expect(yield* repo.memberCount(guildId)).toBe(1)
      expect(yield* repo.join(newMember(guildId, busy), null)).toBe(true)
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER + 1)
    })
  )

  it.effect("the cap is the one passed (Plus: 200): past 100 under a higher cap, concurrent joins held to it", () =>
    Effect.gen(function* () {
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER)
      const targets = yield* Effect.all(Array.from({ length: 5 }, () => arrange()))
      const repo = yield* GuildsRepo
      const [first, ...rest] = targets
      if (first === undefined) throw new Error("five guilds were arranged")
      expect(yield* repo.join(newMember(first.guildId, busy), MAX_GUILDS_PER_USER + 2)).toBe(true)
      const { succeeded, failed } = yield* race(
        rest.map(({ guildId }) => repo.join(newMember(guildId, busy), MAX_GUILDS_PER_USER + 2))
      )
      expect({ succeeded, failed }).toEqual({
        succeeded: 1,
        failed: ["GuildLimitReached", "GuildLimitReached", "GuildLimitReached"]
      })
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER + 2)
    })
  )

  it.effect("a user at 99 guilds joining 5 guilds at once ends in exactly 100", () =>
    Effect.gen(function* () {
      const busy = yield* userInGuilds(MAX_GUILDS_PER_USER - 1)
      const targets = yield* Effect.all(Array.from({ length: 5 }, () => arrange()))
      const repo = yield* GuildsRepo
      const { succeeded, failed } = yield* race(
        targets.map(({ guildId }) => repo.join(newMember(guildId, busy), MAX_GUILDS_PER_USER))
      )
      expect(succeeded).toBe(1)
      expect(failed).toEqual(Array.from({ length: 4 }, () => "GuildLimitReached"))
      expect(yield* repo.guildsOf(busy)).toHaveLength(MAX_GUILDS_PER_USER)
      const counts = yield* repo.memberCounts(targets.map(({ guildId }) => guildId))
      expect([...counts.values()].reduce((sum, n) => sum + n, 0)).toBe(5 + 1)
    })
  )
}
