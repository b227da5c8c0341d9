/**
 * The one behaviour suite every SessionsRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set. Time is passed in (`now`), so both stores are tested alike.
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect } from "effect"
import type { Session } from "../../src/Session.ts"
import { type NewTokens, SessionsRepo } from "../../src/SessionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(9))
let counter = 0
const unique = (label: string) => `${label}-${process.pid}-${Date.now()}-${++counter}`

const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
const at = (ms: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1) + ms)
const HOUR = 3_600_000
const DAY = 24 * HOUR

const tokens = (label: string): NewTokens => ({
  access: { digest: unique(`${label}-access`), expiresAt: at(HOUR) },
  refresh: { digest: unique(`${label}-refresh`) }
})

const newSession = Effect.fnUntraced(function* (userId?: Snowflake.Snowflake) {
  const session: Session = {
    id: yield* ids.next,
    userId: userId ?? (yield* ids.next),
    client: { userAgent: "contract-test", address: "203.0.113.7", country: null },
    createdAt: T0,
    lastUsedAt: T0,
    expiresAt: at(30 * DAY),
    revokedAt: null,
    passwordChangedAt: null
  }
  const pair = tokens("first")
  yield* (yield* SessionsRepo).create(session, pair)
  return { session, pair }
})

export const sessionsRepoContract = (it: Vitest.MethodsNonLive<SessionsRepo>) => {
  it.effect("finds a live access token by digest; unknown digests are unknown", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const { session, pair } = yield* newSession()
      const found = yield* repo.findAccess(pair.access.digest, at(1_000))
      expect(found).toMatchObject({ _tag: "Valid", grant: { sessionId: session.id, userId: session.userId } })
      expect((yield* repo.findAccess(unique("nothing"), at(1_000)))._tag).toBe("Unknown")
      // a refresh token is not an access token
      expect((yield* repo.findAccess(pair.refresh.digest, at(1_000)))._tag).toBe("Unknown")
    })
  )

  it.effect("an access token past its expiry is Expired; a session past its end makes it Unknown", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const { pair } = yield* newSession()
      expect((yield* repo.findAccess(pair.access.digest, at(HOUR)))._tag).toBe("Expired")
      expect((yield* repo.findAccess(pair.access.digest, at(31 * DAY)))._tag).toBe("Unknown")
    })
  )

  it.effect("rotation replaces both tokens: the old refresh and old access stop working", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const { session, pair } = yield* newSession()
      const next = tokens("second")
      const rotated = yield* repo.rotate(pair.refresh.digest, next, at(5_000))
      expect(rotated).toMatchObject({ _tag: "Rotated", grant: { sessionId: session.id } })
      expect((yield* repo.findAccess(next.access.digest, at(6_000)))._tag).toBe("Valid")
      expect((yield* repo.findAccess(pair.access.digest, at(6_000)))._tag).toBe("Unknown")
    })
  )

  for (const after of [0, 1, 60_000]) {
    it.effect(`reuse of a spent refresh token ${after} ms after its use revokes the whole session`, () =>
      Effect.gen(function* () {
        const repo = yield* SessionsRepo
        const { session, pair } = yield* newSession()
        const next = tokens("second")
        yield* repo.rotate(pair.refresh.digest, next, at(1_000))
        const reuse = yield* repo.rotate(pair.refresh.digest, tokens("thief"), at(1_000 + after))
        expect(reuse).toEqual({ _tag: "Reused", sessionId: session.id })
        // the newest tokens of the chain die too; the session is over, so a further reuse revokes nothing
        expect((yield* repo.findAccess(next.access.digest, at(1_001 + after)))._tag).toBe("Unknown")
        expect((yield* repo.rotate(next.refresh.digest, tokens("y"), at(1_001 + after)))._tag).toBe("Rejected")
        expect((yield* repo.rotate(pair.refresh.digest, tokens("z"), at(1_001 + after)))._tag).toBe("Rejected")
      })
    )
  }

  it.effect("ten concurrent refreshes with one token rotate exactly once; the losers' reuse revokes the chain", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const { session, pair } = yield* newSession()
      const attempts = Array.from({ length: 10 }, (_, i) => tokens(`race-${i}`))
      const results = yield* Effect.forEach(attempts, (next) => repo.rotate(pair.refresh.digest, next, at(2_000)), {
        concurrency: "unbounded"
      })
      const winners = attempts.filter((_, i) => results[i]?._tag === "Rotated")
      expect(winners).toHaveLength(1)
      // The first loser to look revokes; on PostgreSQL later ones may find the session already over.
      expect(results.filter((r) => r._tag === "Reused").length).toBeGreaterThanOrEqual(1)
      expect(results.every((r) => r._tag !== "Reused" || r.sessionId === session.id)).toBe(true)
      // No live child at all: the winner's pair went with the chain, the losers' were never stored.
      for (const next of attempts) {
        expect((yield* repo.findAccess(next.access.digest, at(3_000)))._tag).toBe("Unknown")
        expect((yield* repo.rotate(next.refresh.digest, tokens("after"), at(3_000)))._tag).toBe("Rejected")
      }
    })
  )

  it.effect("lists live sessions newest first; revoke and revokeAll end them", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const userId = yield* ids.next
      const a = yield* newSession(userId)
      const b = yield* newSession(userId)
      const c = yield* newSession(userId)
      expect((yield* repo.listLive(userId, at(1_000))).map((s) => s.id).sort()).toEqual(
        [a.session.id, b.session.id, c.session.id].sort()
      )
      yield* repo.revoke(a.session.id, at(2_000))
      expect((yield* repo.findAccess(a.pair.access.digest, at(2_001)))._tag).toBe("Unknown")
      expect(yield* repo.revokeAll(userId, c.session.id, at(3_000))).toBe(1)
      expect((yield* repo.listLive(userId, at(3_001))).map((s) => s.id)).toEqual([c.session.id])
      expect((yield* repo.findAccess(c.pair.access.digest, at(3_001)))._tag).toBe("Valid")
      expect(yield* repo.revokeAll(userId, undefined, at(4_000))).toBe(1)
      expect(yield* repo.listLive(userId, at(4_001))).toEqual([])
    })
  )

  it.effect("findLive answers the live sessions among many ids; revoked, ended and unknown ones are left out", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const userId = yield* ids.next
      const live = yield* newSession(userId)
      const other = yield* newSession()
      const revoked = yield* newSession(userId)
      const refreshed = yield* newSession(userId)
      yield* repo.revoke(revoked.session.id, at(1_000))
      // a rotation leaves the session live (what an open gateway session rests on)
      expect((yield* repo.rotate(refreshed.pair.refresh.digest, tokens("next"), at(1_500)))._tag).toBe("Rotated")
      const unknown = yield* ids.next
      const asked = [live.session.id, unknown, revoked.session.id, other.session.id, refreshed.session.id]
      const found = yield* repo.findLive(asked, at(2 * HOUR))
      expect(found.map((row) => row.sessionId).sort()).toEqual(
        [live.session.id, other.session.id, refreshed.session.id].sort()
      )
      expect(found.find((row) => row.sessionId === other.session.id)).toEqual({
        sessionId: other.session.id,
        userId: other.session.userId,
        block: null
      })
      // past the sessions' end: none
      expect(yield* repo.findLive(asked, at(31 * DAY))).toEqual([])
      expect(yield* repo.findLive([], at(1_000))).toEqual([])
    })
  )

  // The sweep tests live before T0, each on its own stretch of time, so that their cutoffs never
  // reach the sessions of the other tests in the shared store (all at or after T0).
  const before = (days: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1) - days * DAY)
  const sessionFrom = Effect.fnUntraced(function* (start: DateTime.Utc, lifetimeDays = 30) {
    const repo = yield* SessionsRepo
    const session: Session = {
      id: yield* ids.next,
      userId: yield* ids.next,
      client: { userAgent: "contract-test", address: null, country: null },
      createdAt: start,
      lastUsedAt: start,
      expiresAt: DateTime.add(start, { days: lifetimeDays }),
      revokedAt: null,
      passwordChangedAt: null
    }
    const pair = tokens("sweep")
    yield* repo.create(session, pair)
    return { session, pair }
  })

  it.effect("sweep removes revoked and ended sessions with all their tokens; live ones keep theirs", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const B = before(100)
      const later = (ms: number) => DateTime.add(B, { milliseconds: ms })
      // alive throughout, refreshed once: its spent refresh token must stay for reuse detection
      const live = yield* sessionFrom(B)
      const liveNext = tokens("live-next")
      expect((yield* repo.rotate(live.pair.refresh.digest, liveNext, later(1_000)))._tag).toBe("Rotated")
      // logged out: 2 tokens
      const loggedOut = yield* sessionFrom(B)
      yield* repo.revoke(loggedOut.session.id, later(2_000))
      // refreshed, then its spent token reused: revoked, with 3 tokens
      const reused = yield* sessionFrom(B)
      yield* repo.rotate(reused.pair.refresh.digest, tokens("reused-next"), later(1_000))
      expect((yield* repo.rotate(reused.pair.refresh.digest, tokens("x"), later(1_500)))._tag).toBe("Reused")
      // past its absolute end: 2 tokens
      yield* sessionFrom(DateTime.add(B, { days: -29 }))
      // revoked after the cutoff: stays until a later sweep
      const revokedLate = yield* sessionFrom(B)
      yield* repo.revoke(revokedLate.session.id, DateTime.add(B, { days: 20 }))

      const cutoff = DateTime.add(B, { days: 10 })
      expect(yield* repo.sweep(cutoff, 1_000)).toEqual({ sessions: 3, tokens: 7 })
      expect(yield* repo.sweep(cutoff, 1_000)).toEqual({ sessions: 0, tokens: 0 })
      // the live session works as before, through its current pair
      expect((yield* repo.findAccess(liveNext.access.digest, cutoff))._tag).toBe("Valid")
      expect(yield* repo.listLive(live.session.userId, cutoff)).toHaveLength(1)
      expect(yield* repo.sweep(DateTime.add(B, { days: 25 }), 1_000)).toEqual({ sessions: 1, tokens: 2 })
      // and its spent refresh token is still known: a reuse still ends the session
      expect(yield* repo.rotate(live.pair.refresh.digest, tokens("thief"), DateTime.add(B, { days: 25 }))).toEqual({
        _tag: "Reused",
        sessionId: live.session.id
      })
    })
  )

  it.effect("sweep removes at most `limit` sessions a call", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const B = before(200)
      for (let i = 0; i < 5; i++) yield* repo.revoke((yield* sessionFrom(B)).session.id, B)
      const cutoff = DateTime.add(B, { days: 1 })
      const counts = []
      for (let i = 0; i < 4; i++) counts.push((yield* repo.sweep(cutoff, 2)).sessions)
      expect(counts).toEqual([2, 2, 1, 0])
    })
  )

  it.effect("concurrent sweeps (several nodes) remove each session once, without errors", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const B = before(300)
      for (let i = 0; i < 12; i++) yield* repo.revoke((yield* sessionFrom(B)).session.id, B)
      const cutoff = DateTime.add(B, { days: 1 })
      const results = yield* Effect.all(
        Array.from({ length: 4 }, () => repo.sweep(cutoff, 5)),
        { concurrency: "unbounded" }
      )
      const again = yield* Effect.all([repo.sweep(cutoff, 5), repo.sweep(cutoff, 5)], { concurrency: "unbounded" })
      const all = [...results, ...again]
      expect(all.reduce((n, r) => n + r.sessions, 0)).toBe(12)
      expect(all.reduce((n, r) => n + r.tokens, 0)).toBe(24)
      expect(yield* repo.sweep(cutoff, 5)).toEqual({ sessions: 0, tokens: 0 })
    })
  )

  it.effect("touch moves last use; the client info is kept as given", () =>
    Effect.gen(function* () {
      const repo = yield* SessionsRepo
      const { session, pair } = yield* newSession()
      yield* repo.touch(session.id, at(7_000))
      const found = yield* repo.findAccess(pair.access.digest, at(7_001))
      expect(found._tag === "Valid" && DateTime.toEpochMillis(found.lastUsedAt)).toBe(DateTime.toEpochMillis(at(7_000)))
      const [listed] = yield* repo.listLive(session.userId, at(7_001))
      expect(listed?.client).toEqual({ userAgent: "contract-test", address: "203.0.113.7", country: null })
    })
  )
}
