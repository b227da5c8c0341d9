/**
 * The GuildsRepo contract's invites: liveness, deletion, the per-guild cap, and accept (use counting,
 * the per-user cap, races).
 */
import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { type Invite, MAX_GUILDS_PER_USER, MAX_INVITES } from "../../src/Guild.ts"
import { GuildsRepo } from "../../src/GuildsRepo.ts"
import {
  arrange,
  at,
  bulk,
  type GuildsRepoIt,
  inviteView,
  memberView,
  newInvite,
  newMember,
  nextCode,
  now,
  race,
  some,
  user,
  userInGuilds
} from "./GuildsRepoFixtures.ts"

export const invitesContract = (it: GuildsRepoIt) => {
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
      const result = yield* repo.accept(invite.code, joiner, joinedAt, MAX_GUILDS_PER_USER)
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
      const result = yield* repo.accept(invite.code, owner, at(5), MAX_GUILDS_PER_USER)
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
        expect((yield* Effect.flip(repo.accept(code, joiner, now, MAX_GUILDS_PER_USER)))._tag).toBe("InviteNotFound")
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
      expect((yield* repo.accept(invite.code, a, now, MAX_GUILDS_PER_USER)).invite.uses).toBe(1)
      const last = yield* repo.accept(invite.code, b, now, MAX_GUILDS_PER_USER)
      expect(last.joined).toBe(true)
      expect(last.invite.uses).toBe(2)
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
      expect(yield* repo.invitesOf(guildId, now)).toEqual([])
      expect((yield* Effect.flip(repo.accept(invite.code, c, now, MAX_GUILDS_PER_USER)))._tag).toBe("InviteNotFound")
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
      expect((yield* Effect.flip(repo.accept(invite.code, busy, now, MAX_GUILDS_PER_USER)))._tag).toBe(
        "GuildLimitReached"
      )
      expect(Option.getOrThrow(yield* repo.invite(invite.code, now)).uses).toBe(0)
      expect(Option.isNone(yield* repo.member(guildId, busy))).toBe(true)
      expect((yield* repo.accept(invite.code, busy, now, null)).joined).toBe(true)
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
      const { succeeded, failed } = yield* race(
        invites.map((invite) => repo.accept(invite.code, busy, now, MAX_GUILDS_PER_USER))
      )
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
      const { succeeded, failed } = yield* race(
        joiners.map((joiner) => repo.accept(invite.code, joiner, now, MAX_GUILDS_PER_USER))
      )
      expect(succeeded).toBe(1)
      expect(failed).toEqual(Array.from({ length: 4 }, () => "InviteNotFound"))
      expect(yield* repo.memberCount(guildId)).toBe(2)
      expect(Option.isNone(yield* repo.invite(invite.code, now))).toBe(true)
    })
  )
}
