import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import * as BucketId from "../src/BucketId.ts"
import * as RateLimitStore from "../src/RateLimitStore.ts"
import { RouteBuckets } from "../src/RouteBuckets.ts"
import { RouteLimiter } from "../src/RouteLimiter.ts"
import * as BrokenStore from "./BrokenStore.ts"

const buckets = RouteBuckets.layer({
  global: { limit: 20, windowMs: 1_000 },
  buckets: {
    small: { limit: 3, windowMs: 10_000 },
    pooled: { limit: 2, windowMs: 10_000, shared: true }
  },
  routes: { "things.list": "small", "things.get": "small", "things.other": "default", "emoji.create": "pooled" }
})

const limiterOn = (store: Layer.Layer<RateLimiter.RateLimiter>) =>
  RouteLimiter.layer.pipe(Layer.provide(buckets), Layer.provide(store))

let callers = 0
const freshCaller = () => `t:test-${process.pid}-${Date.now()}-${++callers}`

describe("RouteLimiter (memory store)", () => {
  layer(limiterOn(RateLimitStore.layerMemory))((it) => {
    it.effect("counts down a bucket and reports the platform's headers", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 1))
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        const first = yield* limiter.check({ route: "things.list", majorId: undefined, caller })
        expect(first).toEqual({
          "x-ratelimit-limit": "3",
          "x-ratelimit-remaining": "2",
          "x-ratelimit-reset": expect.stringMatching(/^\d{10}\.\d{3}$/),
          "x-ratelimit-reset-after": expect.stringMatching(/^\d+\.\d{3}$/),
          "x-ratelimit-bucket": BucketId.of("small")
        })
        const second = yield* limiter.check({ route: "things.get", majorId: undefined, caller })
        // another route of the same bucket shares the counter and the bucket id
        expect(second["x-ratelimit-remaining"]).toBe("1")
        expect(second["x-ratelimit-bucket"]).toBe(first["x-ratelimit-bucket"])
        const other = yield* limiter.check({ route: "things.other", majorId: undefined, caller })
        expect(other["x-ratelimit-bucket"]).not.toBe(first["x-ratelimit-bucket"])
      })
    )

    it.effect("refuses past the limit with retry-after and scope user, then resets after the window", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 2))
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        const call = limiter.check({ route: "things.list", majorId: undefined, caller })
        for (let i = 0; i < 3; i++) yield* call
        const refused = yield* Effect.flip(call)
        expect(refused.global).toBe(false)
        expect(refused.retryAfterMs).toBeCloseTo(10_000, 0)
        expect(refused.headers).toMatchObject({
          "x-ratelimit-limit": "3",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": "10.000",
          "retry-after": "10",
          "x-ratelimit-scope": "user"
        })
        expect(refused.headers).not.toHaveProperty("x-ratelimit-global")
        yield* TestClock.adjust("10 seconds")
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
      })
    )

    it.effect("keeps separate counters per caller and per top-level resource id", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        for (let i = 0; i < 3; i++) yield* limiter.check({ route: "things.list", majorId: "111", caller })
        expect((yield* Effect.flip(limiter.check({ route: "things.list", majorId: "111", caller }))).global).toBe(false)
        const otherGuild = yield* limiter.check({ route: "things.list", majorId: "222", caller })
        expect(otherGuild["x-ratelimit-remaining"]).toBe("2")
        const otherCaller = yield* limiter.check({ route: "things.list", majorId: "111", caller: freshCaller() })
        expect(otherCaller["x-ratelimit-remaining"]).toBe("2")
      })
    )

    it.effect("a shared bucket counts every caller together and answers scope shared", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        yield* limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        yield* limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        const refused = yield* Effect.flip(
          limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        )
        expect(refused.headers["x-ratelimit-scope"]).toBe("shared")
      })
    )

    it.effect("the global limit answers global with X-RateLimit-Global and no bucket headers", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        for (let i = 0; i < 20; i++) yield* limiter.check({ route: "things.other", majorId: String(i), caller })
        const refused = yield* Effect.flip(limiter.check({ route: "things.other", majorId: "x", caller }))
        expect(refused.global).toBe(true)
        expect(refused.headers).toEqual({
          "retry-after": "1",
          "x-ratelimit-scope": "global",
          "x-ratelimit-global": "true"
        })
      })
    )
  })
})

describe("RouteLimiter when disabled or when the store fails", () => {
  it.effect("answers no headers and never refuses when disabled", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      for (let i = 0; i < 100; i++) {
        expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
      }
    }).pipe(
      Effect.provide(
        RouteLimiter.layer.pipe(
          Layer.provide(RouteBuckets.layer({ enabled: false })),
          Layer.provide(RateLimitStore.layerMemory)
        )
      )
    )
  )

  it.effect("lets requests through (fails open) when the store is unreachable", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
    }).pipe(Effect.provide(RouteLimiter.layer.pipe(Layer.provide(buckets), Layer.provide(BrokenStore.layer))))
  )
})
