/**
 * The GuildsRepo contract's bans: recording one removes the member, a banned user cannot come back
 * until unbanned, paging.
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MAX_GUILDS_PER_USER } from "../../src/Guild.ts"
import {
  arrange,
  ascending,
  at,
  banView,
  type GuildsRepoIt,
  newBan,
  newInvite,
  newMember,
  now,
  oddId,
  some,
  user,
  userWithId
} from "./GuildsRepoFixtures.ts"

export const bansContract = (it: GuildsRepoIt) => {
  it.effect("ban records the ban and removes the member; banning again replaces the ban", () =>
    Effect.gen(function* () {
      const { repo, guildId, owner } = yield* arrange()
      const target = yield* user()
      yield* repo.join(newMember(guildId, target), MAX_GUILDS_PER_USER)
      const ban = newBan(guildId, target, owner, { reason: "spam" })
      expect(yield* repo.ban(ban)).toEqual(Option.some({ roleIds: [] }))
      expect(Option.isNone(yield* repo.member(guildId, target))).toBe(true)
      expect(yield* repo.guildsOf(target)).toEqual([])
      expect(some(yield* repo.findBan(guildId, target), banView)).toEqual(banView(ban))
      const again = newBan(guildId, target, owner, { reason: null, createdAt: at(10) })
      expect(Option.isNone(yield* repo.ban(again))).toBe(true)
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
      expect((yield* Effect.flip(repo.join(newMember(guildId, target), null)))._tag).toBe("BannedFromGuild")
      expect((yield* Effect.flip(repo.accept(invite.code, target, now, MAX_GUILDS_PER_USER)))._tag).toBe(
        "BannedFromGuild"
      )
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(0)
      expect(Option.isNone(yield* repo.member(guildId, target))).toBe(true)
      expect(yield* repo.unban(guildId, target)).toBe(true)
      expect(Option.isNone(yield* repo.findBan(guildId, target))).toBe(true)
      expect(yield* repo.unban(guildId, target)).toBe(false)
      expect((yield* repo.accept(invite.code, target, now, MAX_GUILDS_PER_USER)).joined).toBe(true)
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
}
