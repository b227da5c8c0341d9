/**
 * Identify limits in Redis: one start per max_concurrency bucket per 5 s across every node, a daily
 * total, and the budget GET /gateway/bot reports. Runs when REDIS_URL is set (CI sets it).
 */
import { describe, expect, it } from "@effect/vitest"
import { IdentifyLimits } from "@veche/gateway"
import { Context, Effect, Layer, Redacted } from "effect"
import { createClient } from "redis"
import * as RedisIdentifyLimits from "../src/RedisIdentifyLimits.ts"

const redisUrl = process.env.REDIS_URL

/** A node's limits (each its own connection), on keys no other run shares. */
const node = (prefix: string, limits: IdentifyLimits.Limits, userLimits?: IdentifyLimits.UserLimits) =>
  Effect.map(
    Layer.build(RedisIdentifyLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix, limits, userLimits })),
    (context) => Context.get(context, IdentifyLimits.IdentifyLimits)
  )

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RedisIdentifyLimits", () => {
  it.live("shares buckets and the day between nodes, and reports the budget", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const prefix = `veche:test:identify:${process.pid}:${Date.now()}:`
        const limits = { total: 3, maxConcurrency: 2 }
        const a = yield* node(prefix, limits)
        const b = yield* node(prefix, limits)
        expect(yield* a.budget("bot")).toEqual({ total: 3, remaining: 3, reset_after: 0, max_concurrency: 2 })
        expect(yield* a.start("bot", 0)).toBe("Started")
        // the same bucket (0 % 2 == 2 % 2) from the other node: busy for 5 s
        expect(yield* b.start("bot", 2)).toBe("BucketBusy")
        expect(yield* b.start("bot", 1)).toBe("Started")
        const budget = yield* b.budget("bot")
        expect(budget).toMatchObject({ total: 3, remaining: 1, max_concurrency: 2 })
        expect(budget.reset_after).toBeGreaterThan(86_000_000)
        // another bot has its own buckets and day
        expect(yield* a.start("other", 0)).toBe("Started")
        expect((yield* a.budget("other")).remaining).toBe(2)
      })
    )
  )

  it.live("the last start of a bot's day goes to exactly one of many racing nodes", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const prefix = `veche:test:identify-race:${process.pid}:${Date.now()}:`
        const limits = { total: 1, maxConcurrency: 16 }
        const first = yield* node(prefix, limits)
        const others = yield* Effect.forEach(Array.from({ length: 7 }), () => node(prefix, limits))
        const nodes = [first, ...others]
        // eight nodes, each a different concurrency bucket: only the day can say no
        const outcomes = yield* Effect.forEach(nodes, (limitsOf, shard) => limitsOf.start("bot", shard), {
          concurrency: "unbounded"
        })
        expect(outcomes.filter((outcome) => outcome === "Started")).toHaveLength(1)
        expect(outcomes.filter((outcome) => outcome === "DailyLimitReached")).toHaveLength(7)
        expect((yield* first.budget("bot")).reset_after).toBeGreaterThan(86_000_000)
      })
    )
  )

  it.live("a user's last starts of the day go to exactly as many racing nodes as are left", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const prefix = `veche:test:identify-user-race:${process.pid}:${Date.now()}:`
        const userLimits = { total: 3, burst: 100 }
        const nodes = yield* Effect.forEach(Array.from({ length: 8 }), () =>
          node(prefix, { total: 1, maxConcurrency: 1 }, userLimits)
        )
        const outcomes = yield* Effect.forEach(nodes, (limitsOf) => limitsOf.startUser("u"), {
          concurrency: "unbounded"
        })
        expect(outcomes.filter((outcome) => outcome === "Started")).toHaveLength(3)
        expect(outcomes.filter((outcome) => outcome === "DailyLimitReached")).toHaveLength(5)
      })
    )
  )

  it.live(
    "counts a user's burst and day across nodes; the burst window expires on its own",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const prefix = `veche:test:identify-user:${process.pid}:${Date.now()}:`
          const limits = { total: 3, maxConcurrency: 1 }
          const a = yield* node(prefix, limits, { total: 3, burst: 2 })
          const b = yield* node(prefix, limits, { total: 3, burst: 2 })
          expect(yield* a.startUser("u")).toBe("Started")
          expect(yield* b.startUser("u")).toBe("Started")
          expect(yield* a.startUser("u")).toBe("BucketBusy")
          expect(yield* b.startUser("v")).toBe("Started")
          // the window has an expiry (never a counter that lives for ever)
          const redis = yield* Effect.promise(async () => {
            const client = await createClient({ url: redisUrl ?? "" }).connect()
            const ttl = await client.pTTL(`${prefix}user-burst:u`)
            const dayTtl = await client.pTTL(`${prefix}user-day:u`)
            await client.quit()
            return { ttl, dayTtl }
          })
          expect(redis.ttl).toBeGreaterThan(0)
          expect(redis.ttl).toBeLessThanOrEqual(5000)
          expect(redis.dayTtl).toBeGreaterThan(86_000_000)
          yield* Effect.sleep("5100 millis")
          expect(yield* b.startUser("u")).toBe("Started")
          // three of the day spent: no more, from either node, whatever the window
          yield* Effect.sleep("5100 millis")
          expect(yield* a.startUser("u")).toBe("DailyLimitReached")
          expect(yield* b.startUser("u")).toBe("DailyLimitReached")
        })
      ),
    { timeout: 30_000 }
  )
})
