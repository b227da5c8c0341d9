/**
 * The one behaviour suite every RestrictionsRepo adapter must pass. On memory in every run, on
 * PostgreSQL when DATABASE_URL is set (restrictions refer to users, so users are made through
 * UsersRepo).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import * as Restriction from "../../src/Restriction.ts"
import { RestrictionsRepo } from "../../src/RestrictionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(15))
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
const at = (ms: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1) + ms)
const DAY = 86_400_000

const newUser = () => insertUser(ids, "restrict")

const restriction = (
  userId: Snowflake.Snowflake,
  overrides: Partial<Restriction.Restriction> = {}
): Restriction.Restriction => ({
  userId,
  reason: "spam",
  until: at(7 * DAY),
  restrictedBy: null,
  createdAt: T0,
  ...overrides
})

export const restrictionsRepoContract = (it: Vitest.MethodsNonLive<RestrictionsRepo | UsersRepo.UsersRepo>) => {
  it.effect("sets, replaces and lifts an account's restriction", () =>
    Effect.gen(function* () {
      const repo = yield* RestrictionsRepo
      const userId = yield* newUser()
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
      const moderator = yield* ids.next
      yield* repo.put(restriction(userId, { restrictedBy: moderator }))
      const found = Option.getOrThrow(yield* repo.find(userId))
      expect(found).toMatchObject({ userId, reason: "spam", restrictedBy: moderator })
      expect(DateTime.toEpochMillis(found.until ?? T0)).toBe(DateTime.toEpochMillis(at(7 * DAY)))
      expect(DateTime.toEpochMillis(found.createdAt)).toBe(DateTime.toEpochMillis(T0))
      yield* repo.put(restriction(userId, { reason: "fraud", until: null }))
      expect(Option.getOrThrow(yield* repo.find(userId))).toMatchObject({
        reason: "fraud",
        until: null,
        restrictedBy: null
      })
      expect(yield* repo.remove(userId)).toBe(true)
      expect(yield* repo.remove(userId)).toBe(false)
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
    })
  )

  it.effect("keeps each account's restriction apart, ended ones included", () =>
    Effect.gen(function* () {
      const repo = yield* RestrictionsRepo
      const restricted = yield* newUser()
      const other = yield* newUser()
      yield* repo.put(restriction(restricted, { reason: "abuse", until: at(DAY) }))
      expect(Option.isNone(yield* repo.find(other))).toBe(true)
      expect(yield* repo.remove(other)).toBe(false)
      // an ended restriction is still stored; whether it counts is the domain's question
      const found = Option.getOrThrow(yield* repo.find(restricted))
      expect(found.reason).toBe("abuse")
      expect(Restriction.isActive(found, at(DAY - 1))).toBe(true)
      expect(Restriction.isActive(found, at(DAY))).toBe(false)
      expect(Restriction.isActive({ ...found, until: null }, at(1000 * DAY))).toBe(true)
    })
  )
}
