/**
 * The one behaviour suite every DiscoveryRepo adapter must pass. On memory in every run, on
 * PostgreSQL when DATABASE_URL is set (listings refer to guilds and reports to users, so both are
 * made through the guilds' and users' repositories).
 */
import { expect, type Vitest } from "@effect/vitest"
import type { GuildsRepo } from "@veche/guilds"
import { arrange, ids, user } from "@veche/guilds/test/contracts/GuildsRepoFixtures"
import type { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { DiscoveryRepo } from "../../src/DiscoveryRepo.ts"
import type { Publication } from "../../src/Listing.ts"

export type DiscoveryRepoIt = Vitest.MethodsNonLive<DiscoveryRepo | GuildsRepo.GuildsRepo | UsersRepo.UsersRepo>

const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
let counter = 0

const publication = (
  guildId: Snowflake.Snowflake,
  ownerId: Snowflake.Snowflake,
  overrides: Partial<Publication> = {}
): Publication => ({
  guildId,
  ownerId,
  category: "gaming",
  tags: ["chess"],
  description: "A place for chess players of every level to meet.",
  name: `Contract ${++counter}`,
  slugs: [`contract-slug-${process.pid}-${Date.now()}-${counter}`, guildId],
  now: T0,
  ...overrides
})

export const discoveryRepoContract = (it: DiscoveryRepoIt) => {
  it.effect("publish lists a guild under its slug; a card change keeps the slug; unpublish keeps the row", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const { guildId, owner } = yield* arrange("Listed")
      const first = yield* repo.publish(publication(guildId, owner), 3)
      expect(first).toMatchObject({ guildId, ownerId: owner, state: "listed", tags: ["chess"], reason: null })
      expect(Option.map(yield* repo.findBySlug(first.slug), (l) => l.guildId)).toEqual(Option.some(guildId))
      const changed = yield* repo.publish(publication(guildId, owner, { category: "music", slugs: ["other"] }), 3)
      expect(changed).toMatchObject({ slug: first.slug, category: "music" })
      const down = yield* repo.unpublish(guildId, T0)
      expect(Option.map(down, (l) => l.state)).toEqual(Option.some("not_listed"))
      expect(Option.map(yield* repo.find(guildId), (l) => l.slug)).toEqual(Option.some(first.slug))
      expect(yield* repo.unpublish(yield* ids.next, T0)).toEqual(Option.none())
    })
  )

  it.effect("listedCount counts listed guilds only", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const before = yield* repo.listedCount
      const a = yield* arrange("Counted A")
      const b = yield* arrange("Counted B")
      yield* repo.publish(publication(a.guildId, a.owner), 3)
      yield* repo.publish(publication(b.guildId, b.owner), 3)
      expect(yield* repo.listedCount).toBe(before + 2)
      yield* repo.setState(b.guildId, "removed", "spam", T0)
      yield* repo.unpublish(a.guildId, T0)
      expect(yield* repo.listedCount).toBe(before)
    })
  )

  it.effect("a taken slug goes to the next candidate", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const a = yield* arrange("A")
      const b = yield* arrange("B")
      const taken = `taken-${process.pid}-${Date.now()}`
      expect((yield* repo.publish(publication(a.guildId, a.owner, { slugs: [taken, a.guildId] }), 3)).slug).toBe(taken)
      expect((yield* repo.publish(publication(b.guildId, b.owner, { slugs: [taken, b.guildId] }), 3)).slug).toBe(
        b.guildId
      )
    })
  )

  it.effect("an owner's public guilds are capped, also under concurrent publications", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const first = yield* arrange("Cap 0")
      const others = yield* Effect.forEach([1, 2, 3, 4], (i) => arrange(`Cap ${i}`))
      const owner = first.owner
      const results = yield* Effect.forEach(
        [first, ...others],
        (guild) => Effect.result(repo.publish(publication(guild.guildId, owner), 3)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(3)
      expect(results.filter((r) => r._tag === "Failure")).toHaveLength(2)
      for (const failed of results)
        if (failed._tag === "Failure") expect(failed.failure._tag).toBe("PublicLimitReached")
    })
  )

  it.effect("search: listed guilds only, by words and category; a rename is searched", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const word = `zebrafish${process.pid}x${Date.now() % 100000}`
      const { guildId, owner } = yield* arrange("Searchable")
      yield* repo.publish(publication(guildId, owner, { description: `All about ${word} and more words here.` }), 3)
      expect(yield* repo.search({ q: word, category: null, limit: 10 })).toEqual([guildId])
      expect(yield* repo.search({ q: word, category: "music", limit: 10 })).toEqual([])
      const renamed = `okapi${process.pid}y${Date.now() % 100000}`
      expect(yield* repo.search({ q: renamed, category: null, limit: 10 })).toEqual([])
      yield* repo.rename(guildId, renamed)
      expect(yield* repo.search({ q: renamed, category: null, limit: 10 })).toEqual([guildId])
      expect((yield* repo.search({ q: null, category: null, limit: 1000 })).includes(guildId)).toBe(true)
      yield* repo.unpublish(guildId, T0)
      expect(yield* repo.search({ q: word, category: null, limit: 10 })).toEqual([])
    })
  )

  it.effect("reports: one per user, counted; the threshold hides; staff states close open reports", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const { guildId, owner } = yield* arrange("Reported")
      const [a, b] = [yield* user("reporter"), yield* user("reporter")]
      const report = (userId: Snowflake.Snowflake) => repo.report({ guildId, userId, reason: "spam", now: T0 }, 2)
      expect((yield* Effect.result(report(a)))._tag).toBe("Failure")
      yield* repo.publish(publication(guildId, owner), 3)
      expect(yield* report(a)).toEqual({ counted: true, hidden: false })
      expect(yield* report(a)).toEqual({ counted: false, hidden: false })
      expect(yield* repo.openReports([guildId])).toEqual(new Map([[guildId, 1]]))
      expect(yield* report(b)).toEqual({ counted: true, hidden: true })
      expect(Option.map(yield* repo.find(guildId), (l) => l.state)).toEqual(Option.some("auto_hidden"))
      expect((yield* repo.inState("auto_hidden", 100)).map((l) => l.guildId)).toContain(guildId)
      const listed = yield* repo.setState(guildId, "listed", "reviewed", T0)
      expect(Option.map(listed, (l) => [l.state, l.reason])).toEqual(Option.some(["listed", "reviewed"]))
      expect(yield* repo.openReports([guildId])).toEqual(new Map())
      // removed stays removed through the owner's unpublish and publish
      yield* repo.setState(guildId, "removed", null, T0)
      yield* repo.unpublish(guildId, T0)
      expect((yield* repo.publish(publication(guildId, owner), 3)).state).toBe("removed")
      expect(yield* repo.setState(yield* ids.next, "listed", null, T0)).toEqual(Option.none())
    })
  )

  it.effect("a user's reports: listed for their export, erased with their account", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const first = yield* arrange("Report one")
      const second = yield* arrange("Report two")
      const reporter = yield* user("reporter")
      for (const guild of [first, second]) yield* repo.publish(publication(guild.guildId, guild.owner), 3)
      yield* repo.report({ guildId: first.guildId, userId: reporter, reason: "spam", now: T0 }, 0)
      yield* repo.report(
        { guildId: second.guildId, userId: reporter, reason: "scam", now: DateTime.add(T0, { seconds: 1 }) },
        0
      )
      const mine = yield* repo.reportsBy(reporter)
      expect(mine.map((r) => [r.guildId, r.reason, DateTime.toEpochMillis(r.createdAt)])).toEqual([
        [first.guildId, "spam", DateTime.toEpochMillis(T0)],
        [second.guildId, "scam", DateTime.toEpochMillis(T0) + 1000]
      ])
      yield* repo.eraseReportsBy(reporter)
      yield* repo.eraseReportsBy(reporter)
      expect(yield* repo.reportsBy(reporter)).toEqual([])
      expect(yield* repo.openReports([first.guildId, second.guildId])).toEqual(new Map())
    })
  )

  it.effect("the catalogue check: concurrent claims split the due listings; hiding and relisting are conditional", () =>
    Effect.gen(function* () {
      const repo = yield* DiscoveryRepo
      const a = yield* arrange("Checked A")
      const b = yield* arrange("Checked B")
      const c = yield* arrange("Checked C")
      yield* repo.publish(publication(a.guildId, a.owner), 3)
      yield* repo.publish(publication(b.guildId, b.owner), 3)
      yield* repo.publish(publication(c.guildId, c.owner), 3)
      yield* repo.setState(c.guildId, "auto_hidden", "staff look", T0)
      // every row checked at some earlier time is due again now: four claimants at once
      const later = DateTime.add(T0, { days: 365 })
      const claims = yield* Effect.all(
        Array.from({ length: 4 }, () => repo.claimDue(later, later, 1000)),
        { concurrency: "unbounded" }
      )
      const claimed = claims.flat().map((listing) => listing.guildId)
      expect(new Set(claimed).size).toBe(claimed.length)
      expect(claimed).toEqual(expect.arrayContaining([a.guildId, b.guildId]))
      // hidden by staff: not the check's to look at
      expect(claimed).not.toContain(c.guildId)
      // checked just now: not due again before the cutoff passes
      expect((yield* repo.claimDue(later, later, 1000)).map((listing) => listing.guildId)).not.toContain(a.guildId)

      expect(yield* repo.hideForConditions(a.guildId, "Too few members.", later)).toBe(true)
      expect(Option.getOrThrow(yield* repo.find(a.guildId))).toMatchObject({
        state: "auto_hidden",
        hiddenFor: "conditions",
        reason: "Too few members."
      })
      // hidden by the check: still its to look at, and to list again
      const again = DateTime.add(later, { days: 1 })
      expect((yield* repo.claimDue(again, again, 1000)).map((listing) => listing.guildId)).toContain(a.guildId)
      expect(yield* repo.relist(a.guildId, again)).toBe(true)
      expect(Option.getOrThrow(yield* repo.find(a.guildId))).toMatchObject({
        state: "listed",
        hiddenFor: null,
        reason: null
      })
      expect(yield* repo.relist(a.guildId, again)).toBe(false)
      // staff's states stand: a staff-hidden or removed guild is neither hidden for conditions nor relisted
      expect(yield* repo.hideForConditions(c.guildId, "Too few members.", again)).toBe(false)
      expect(yield* repo.relist(c.guildId, again)).toBe(false)
      expect(Option.getOrThrow(yield* repo.find(c.guildId))).toMatchObject({ state: "auto_hidden", hiddenFor: "staff" })
      yield* repo.setState(b.guildId, "removed", "scam", again)
      expect(yield* repo.hideForConditions(b.guildId, "Too few members.", again)).toBe(false)
      expect(Option.getOrThrow(yield* repo.find(b.guildId)).state).toBe("removed")
    })
  )
}
