/** The rate limiter on Redis: what several nodes share. Runs when REDIS_URL is set (CI sets it). */
import { describe, expect, it } from "@effect/vitest"
import { QuotaLimiter, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Effect, Layer, Redacted } from "effect"
import * as RedisRateLimits from "../src/RedisRateLimits.ts"

let callers = 0
const freshCaller = () => `t:test-${process.pid}-${Date.now()}-${++callers}`

const redisUrl = process.env.REDIS_URL

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RouteLimiter (Redis store)", () => {
  it.live("counts in Redis, refuses past the limit, and resets after the window", () =>
    Effect.gen(function* () {
      const store = RedisRateLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:` })
      const short = RouteBuckets.RouteBuckets.layer({
        buckets: { small: { limit: 3, windowMs: 600 } },
        routes: { "things.list": "small" }
      })
      yield* Effect.gen(function* () {
        const limiter = yield* RouteLimiter.RouteLimiter
        const caller = freshCaller()
        const call = limiter.check({ route: "things.list", majorId: "1", caller })
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
        yield* call
        yield* call
        const refused = yield* Effect.flip(call)
        expect(refused.headers["x-ratelimit-scope"]).toBe("user")
        expect(refused.retryAfterMs).toBeGreaterThan(0)
        expect(refused.retryAfterMs).toBeLessThanOrEqual(600)
        yield* Effect.sleep(refused.retryAfterMs + 50)
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
      }).pipe(Effect.provide(RouteLimiter.RouteLimiter.layer.pipe(Layer.provide(short), Layer.provide(store))))
    })
  )
})

describe.runIf(redisUrl !== undefined && redisUrl !== "")("QuotaLimiter (Redis store)", () => {
  it.live("counts concurrent uses atomically: exactly 3 of 20 parallel sends pass", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter.QuotaLimiter
      const phone = `+7999${String(Date.now()).slice(-7)}`
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => Effect.result(limiter.consume("smsPerPhone", phone)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(3)
    }).pipe(
      Effect.provide(
        QuotaLimiter.QuotaLimiter.layer().pipe(
          Layer.provide(
            RedisRateLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:` })
          )
        )
      )
    )
  )
})
