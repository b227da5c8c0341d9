/**
 * The one behaviour suite every SanctionsRepo adapter must pass, together with the SessionsRepo
 * beside it: an access-token lookup carries the account's block (and only its block, never its
 * restriction). On memory in every run, on PostgreSQL when DATABASE_URL is set (sanctions refer to
 * users, so users are made through UsersRepo).
 */
import { expect, type Vitest } from "@effect/vitest"
import { SessionsRepo } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import * as Sanction from "../../src/Sanction.ts"
import { SanctionsRepo } from "../../src/SanctionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(14))
let counter = 0
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
const at = (ms: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1) + ms)
const DAY = 86_400_000

const newUser = () => insertUser(ids, "sanction")

const sanction = (
  userId: Snowflake.Snowflake,
  kind: Sanction.Kind,
  overrides: Partial<Sanction.Sanction> = {}
): Sanction.Sanction => ({
  userId,
  kind,
  reason: "spam",
  until: at(7 * DAY),
  by: null,
  createdAt: T0,
  ...overrides
})

const session = Effect.fnUntraced(function* (userId: Snowflake.Snowflake) {
  const digest = `sanctions-contract-${process.pid}-${Date.now()}-${++counter}`
  yield* (yield* SessionsRepo.SessionsRepo).create(
    {
      id: yield* ids.next,
      userId,
      client: { userAgent: null, address: null, country: null },
      createdAt: T0,
      lastUsedAt: T0,
      expiresAt: at(30 * DAY),
      revokedAt: null,
      passwordChangedAt: null
    },
    { access: { digest, expiresAt: at(DAY) }, refresh: { digest: `${digest}-refresh` } }
  )
  return digest
})

export const sanctionsRepoContract = (
  it: Vitest.MethodsNonLive<SanctionsRepo | SessionsRepo.SessionsRepo | UsersRepo.UsersRepo>
) => {
  for (const kind of Sanction.Kind.literals) {
    it.effect(`sets, replaces and lifts an account's ${kind}`, () =>
      Effect.gen(function* () {
        const repo = yield* SanctionsRepo
        const userId = yield* newUser()
        expect(Option.isNone(yield* repo.find(userId, kind))).toBe(true)
        const moderator = yield* ids.next
        yield* repo.put(sanction(userId, kind, { by: moderator }))
        const found = Option.getOrThrow(yield* repo.find(userId, kind))
        expect(found).toMatchObject({ userId, kind, reason: "spam", by: moderator })
        expect(DateTime.toEpochMillis(found.until ?? T0)).toBe(DateTime.toEpochMillis(at(7 * DAY)))
        expect(DateTime.toEpochMillis(found.createdAt)).toBe(DateTime.toEpochMillis(T0))
        yield* repo.put(sanction(userId, kind, { reason: "fraud", until: null }))
        expect(Option.getOrThrow(yield* repo.find(userId, kind))).toMatchObject({
          kind,
          reason: "fraud",
          until: null,
          by: null
        })
        expect(yield* repo.remove(userId, kind)).toBe(true)
        expect(yield* repo.remove(userId, kind)).toBe(false)
        expect(Option.isNone(yield* repo.find(userId, kind))).toBe(true)
      })
    )
  }

  it.effect("keeps each account's sanctions apart, and a block apart from a restriction, ended ones included", () =>
    Effect.gen(function* () {
      const repo = yield* SanctionsRepo
      const sanctioned = yield* newUser()
      const other = yield* newUser()
      yield* repo.put(sanction(sanctioned, "restriction", { reason: "abuse", until: at(DAY) }))
      expect(Option.isNone(yield* repo.find(other, "restriction"))).toBe(true)
      expect(yield* repo.remove(other, "restriction")).toBe(false)
      // a restriction is no block, and lifting the one leaves the other
      expect(Option.isNone(yield* repo.find(sanctioned, "block"))).toBe(true)
      expect(yield* repo.remove(sanctioned, "block")).toBe(false)
      yield* repo.put(sanction(sanctioned, "block", { reason: "fraud" }))
      expect(Option.getOrThrow(yield* repo.find(sanctioned, "block")).reason).toBe("fraud")
      expect(yield* repo.remove(sanctioned, "block")).toBe(true)
      // an ended sanction is still stored; whether it counts is the domain's question
      const found = Option.getOrThrow(yield* repo.find(sanctioned, "restriction"))
      expect(found).toMatchObject({ kind: "restriction", reason: "abuse" })
      expect(Sanction.isActive(found, at(DAY - 1))).toBe(true)
      expect(Sanction.isActive(found, at(DAY))).toBe(false)
      expect(Sanction.isActive({ ...found, until: null }, at(1000 * DAY))).toBe(true)
    })
  )

  it.effect("an access-token lookup carries the account's block, and only that account's", () =>
    Effect.gen(function* () {
      const repo = yield* SanctionsRepo
      const sessions = yield* SessionsRepo.SessionsRepo
      const blocked = yield* newUser()
      const other = yield* newUser()
      const blockedToken = yield* session(blocked)
      const otherToken = yield* session(other)
      yield* repo.put(sanction(blocked, "block", { reason: "abuse" }))
      // a restriction is a shadow one: the token lookup never carries it
      yield* repo.put(sanction(other, "restriction", { reason: "abuse" }))
      const lookup = yield* sessions.findAccess(blockedToken, at(1000))
      expect(lookup._tag).toBe("Valid")
      if (lookup._tag === "Valid") expect(lookup.block).toMatchObject({ userId: blocked, reason: "abuse" })
      const clean = yield* sessions.findAccess(otherToken, at(1000))
      if (clean._tag !== "Valid") return expect.unreachable()
      expect(clean.block).toBeNull()
      yield* repo.remove(blocked, "block")
      const lifted = yield* sessions.findAccess(blockedToken, at(2000))
      if (lifted._tag !== "Valid") return expect.unreachable()
      expect(lifted.block).toBeNull()
    })
  )
}
