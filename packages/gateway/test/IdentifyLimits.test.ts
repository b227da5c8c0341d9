/** Identify limits on the memory store, on the test clock: buckets free after 5 s, days after 24 h. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { IdentifyLimits } from "../src/IdentifyLimits.ts"

describe("IdentifyLimits.layerMemory", () => {
  it.effect("one start per bucket per 5 s, a daily total, and the budget with reset_after", () =>
    Effect.gen(function* () {
      const limits = yield* IdentifyLimits
      expect(yield* limits.start("bot", 0)).toBe("Started")
      expect(yield* limits.start("bot", 0)).toBe("BucketBusy")
      expect(yield* limits.start("bot", 1)).toBe("Started") // max_concurrency 2: another bucket
      expect(yield* limits.budget("bot")).toEqual({
        total: 3,
        remaining: 1,
        reset_after: 86_400_000,
        max_concurrency: 2
      })
      yield* TestClock.adjust("5 seconds")
      expect(yield* limits.start("bot", 0)).toBe("Started")
      yield* TestClock.adjust("5 seconds")
      expect(yield* limits.start("bot", 0)).toBe("DailyLimitReached")
      expect((yield* limits.budget("bot")).reset_after).toBe(86_390_000)
      yield* TestClock.adjust("1 day")
      expect(yield* limits.budget("bot")).toEqual({ total: 3, remaining: 3, reset_after: 0, max_concurrency: 2 })
      expect(yield* limits.start("bot", 0)).toBe("Started")
    }).pipe(Effect.provide(IdentifyLimits.layerMemory({ total: 3, maxConcurrency: 2 })))
  )

  it.effect("a user: `burst` identifies per 5 s window, then BucketBusy; a daily total, then DailyLimitReached", () =>
    Effect.gen(function* () {
      const limits = yield* IdentifyLimits
      expect(yield* limits.startUser("u")).toBe("Started")
      expect(yield* limits.startUser("u")).toBe("Started")
      expect(yield* limits.startUser("u")).toBe("BucketBusy")
      // another user has their own
      expect(yield* limits.startUser("v")).toBe("Started")
      // a bot's budget is apart from users'
      expect((yield* limits.budget("u")).remaining).toBe(3)
      yield* TestClock.adjust("5 seconds")
      expect(yield* limits.startUser("u")).toBe("Started")
      expect(yield* limits.startUser("u")).toBe("DailyLimitReached")
      yield* TestClock.adjust("5 seconds")
      expect(yield* limits.startUser("u")).toBe("DailyLimitReached")
      yield* TestClock.adjust("1 day")
      expect(yield* limits.startUser("u")).toBe("Started")
    }).pipe(Effect.provide(IdentifyLimits.layerMemory({ total: 3, maxConcurrency: 2 }, { total: 3, burst: 2 })))
  )
})
