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
