import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { QuotaLimiter } from "../src/QuotaLimiter.ts"
import * as RateLimitStore from "../src/RateLimitStore.ts"
import * as BrokenStore from "./BrokenStore.ts"

const quotas = QuotaLimiter.layer().pipe(Layer.provide(RateLimitStore.layerMemory))

describe("QuotaLimiter", () => {
  it.effect("allows 3 SMS per phone per hour, then refuses until the hour is over", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (const left of [2, 1, 0]) expect((yield* limiter.consume("smsPerPhone", "+79161234567")).remaining).toBe(left)
      const refused = yield* Effect.flip(limiter.consume("smsPerPhone", "+79161234567"))
      expect(refused._tag).toBe("QuotaExceeded")
      // another phone is counted apart
      expect((yield* limiter.consume("smsPerPhone", "+79161234568")).remaining).toBe(2)
      yield* TestClock.adjust("1 hour")
      expect((yield* limiter.consume("smsPerPhone", "+79161234567")).remaining).toBe(2)
    }).pipe(Effect.provide(quotas))
  )

  it.effect("check tells whether a use is left without counting one", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (let i = 0; i < 5; i++) expect((yield* limiter.check("dataExportPerUser", "u1")).remaining).toBe(1)
      yield* limiter.consume("dataExportPerUser", "u1")
      expect((yield* Effect.flip(limiter.check("dataExportPerUser", "u1")))._tag).toBe("QuotaExceeded")
    }).pipe(Effect.provide(quotas))
  )

  it.effect("giveBack returns a unit taken by consume, and its share of the window", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (let i = 0; i < 10; i++) yield* limiter.consume("failedMfaPerAccount", "user:1")
      expect((yield* Effect.flip(limiter.consume("failedMfaPerAccount", "user:1")))._tag).toBe("QuotaExceeded")
      yield* limiter.giveBack("failedMfaPerAccount", "user:1")
      const again = yield* limiter.consume("failedMfaPerAccount", "user:1")
      expect(again.remaining).toBe(0)
      // Taken and given back at once, over and over, it never runs out.
      for (let i = 0; i < 20; i++) {
        yield* limiter.consume("failedLoginsPerAccount", "+79160000001")
        yield* limiter.giveBack("failedLoginsPerAccount", "+79160000001")
      }
      expect((yield* limiter.check("failedLoginsPerAccount", "+79160000001")).remaining).toBe(10)
    }).pipe(Effect.provide(quotas))
  )

  it.effect("giveBack on an unreachable store is a no-op, not a failure", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      yield* limiter.giveBack("failedMfaPerAccount", "user:1")
    }).pipe(Effect.provide(QuotaLimiter.layer().pipe(Layer.provide(BrokenStore.layer))))
  )

  it.effect("takes overrides for a quota", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      yield* limiter.consume("smsPerPhone", "p")
      expect((yield* Effect.flip(limiter.consume("smsPerPhone", "p")))._tag).toBe("QuotaExceeded")
    }).pipe(
      Effect.provide(
        QuotaLimiter.layer({ smsPerPhone: { limit: 1, windowMs: 60_000 } }).pipe(
          Layer.provide(RateLimitStore.layerMemory)
        )
      )
    )
  )

  it.effect("refuses (fails closed) when the counter store is unreachable", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      const error = yield* Effect.flip(limiter.consume("smsPerPhone", "+79161234567"))
      expect(error).toMatchObject({ _tag: "QuotaUnavailable", quota: "smsPerPhone" })
      expect((yield* Effect.flip(limiter.check("recoverEmailPerEmail", "a@b.c")))._tag).toBe("QuotaUnavailable")
    }).pipe(Effect.provide(QuotaLimiter.layer().pipe(Layer.provide(BrokenStore.layer))))
  )

  it.effect("counts concurrent uses atomically: exactly 3 of 20 parallel sends pass", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => Effect.result(limiter.consume("smsPerPhone", "+79990000000")),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(3)
    }).pipe(Effect.provide(quotas))
  )
})
