/**
 * The one behaviour suite every MfaRepo adapter must pass: on memory in every run, on PostgreSQL
 * when DATABASE_URL is set. Users are created through the UsersRepo beside it, because the
 * PostgreSQL tables refer to them.
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import { MfaRepo, type TotpRecord } from "../../src/MfaRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(12))

const newUser = () => insertUser(ids, "mfa")

const record = (userId: Snowflake.Snowflake, lastStep = 1000): TotpRecord => ({
  userId,
  secretEnvelope: `v1.test.${userId}`,
  lastStep,
  enabledAt: DateTime.makeUnsafe(Math.floor(Date.now()))
})

const hashes = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}salt${i}$digest${i}`)

const concurrently = <A>(n: number, effect: Effect.Effect<A>) =>
  Effect.all(
    Array.from({ length: n }, () => effect),
    { concurrency: "unbounded" }
  )

export const mfaRepoContract = (it: Vitest.MethodsNonLive<MfaRepo | UsersRepo.UsersRepo>) => {
  it.effect("enables with the first set of codes and reads both back", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const userId = yield* newUser()
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
      expect(yield* repo.unusedBackupCodes(userId)).toEqual([])
      const enabled = record(userId)
      yield* repo.enable(enabled, hashes("a"))
      const found = yield* repo.find(userId)
      expect(Option.getOrThrow(found)).toMatchObject({
        userId,
        secretEnvelope: enabled.secretEnvelope,
        lastStep: 1000
      })
      expect(DateTime.toEpochMillis(Option.getOrThrow(found).enabledAt)).toBe(DateTime.toEpochMillis(enabled.enabledAt))
      const codes = yield* repo.unusedBackupCodes(userId)
      expect(codes.map((code) => code.hash).sort()).toEqual(hashes("a").sort())
      expect(new Set(codes.map((code) => code.id)).size).toBe(10)
    })
  )

  it.effect("refuses to enable twice, keeping the first secret and codes", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const userId = yield* newUser()
      yield* repo.enable(record(userId), hashes("first"))
      const again = yield* repo
        .enable({ ...record(userId), secretEnvelope: "other" }, hashes("second"))
        .pipe(Effect.flip)
      expect(again._tag).toBe("MfaAlreadyEnabled")
      expect(Option.getOrThrow(yield* repo.find(userId)).secretEnvelope).toBe(`v1.test.${userId}`)
      expect((yield* repo.unusedBackupCodes(userId)).map((code) => code.hash).sort()).toEqual(hashes("first").sort())
    })
  )

  it.effect("accepts each time step once and only later ones, even under concurrency", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const userId = yield* newUser()
      expect(yield* repo.useStep(userId, 2000)).toBe(false) // TOTP off
      yield* repo.enable(record(userId, 1000), [])
      expect(yield* repo.useStep(userId, 1000)).toBe(false) // the enabling step
      expect(yield* repo.useStep(userId, 999)).toBe(false)
      const wins = yield* concurrently(8, repo.useStep(userId, 1001))
      expect(wins.filter(Boolean)).toHaveLength(1)
      expect(yield* repo.useStep(userId, 1001)).toBe(false)
      expect(yield* repo.useStep(userId, 1003)).toBe(true)
      expect(yield* repo.useStep(userId, 1002)).toBe(false)
      expect(Option.getOrThrow(yield* repo.find(userId)).lastStep).toBe(1003)
    })
  )

  it.effect("uses a backup code once, even under concurrency, and only the owner's", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const owner = yield* newUser()
      const stranger = yield* newUser()
      yield* repo.enable(record(owner), hashes("o"))
      yield* repo.enable(record(stranger), hashes("s"))
      const [code] = yield* repo.unusedBackupCodes(owner)
      if (code === undefined) return expect.unreachable()
      expect(yield* repo.useBackupCode(stranger, code.id)).toBe(false)
      const wins = yield* concurrently(8, repo.useBackupCode(owner, code.id))
      expect(wins.filter(Boolean)).toHaveLength(1)
      expect(yield* repo.useBackupCode(owner, code.id)).toBe(false)
      expect(yield* repo.useBackupCode(owner, "not-an-id")).toBe(false)
      expect(yield* repo.unusedBackupCodes(owner)).toHaveLength(9)
      expect(yield* repo.unusedBackupCodes(stranger)).toHaveLength(10)
    })
  )

  it.effect("a new set replaces the old one; with TOTP off nothing changes", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const userId = yield* newUser()
      expect(yield* repo.replaceBackupCodes(userId, hashes("x"))).toBe(false)
      expect(yield* repo.unusedBackupCodes(userId)).toEqual([])
      yield* repo.enable(record(userId), hashes("old"))
      const [old] = yield* repo.unusedBackupCodes(userId)
      expect(yield* repo.replaceBackupCodes(userId, hashes("new"))).toBe(true)
      const codes = yield* repo.unusedBackupCodes(userId)
      expect(codes.map((code) => code.hash).sort()).toEqual(hashes("new").sort())
      if (old !== undefined) expect(yield* repo.useBackupCode(userId, old.id)).toBe(false)
    })
  )

  it.effect("disabling removes the secret and every code; a second disable says it was off", () =>
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const userId = yield* newUser()
      yield* repo.enable(record(userId), hashes("d"))
      expect(yield* repo.disable(userId)).toBe(true)
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
      expect(yield* repo.unusedBackupCodes(userId)).toEqual([])
      expect(yield* repo.disable(userId)).toBe(false)
      // and it can be enabled afresh
      yield* repo.enable(record(userId, 5), hashes("again"))
      expect(Option.getOrThrow(yield* repo.find(userId)).lastStep).toBe(5)
    })
  )
}
