/**
 * Identify limits in Redis: one start per max_concurrency bucket per 5 s across every node, a daily
 * total, and the budget GET /gateway/bot reports. Runs when REDIS_URL is set (CI sets it).
 */
import { describe, expect, it } from "@effect/vitest"
import { IdentifyLimits } from "@veche/gateway"
import { Context, Effect, Layer, Redacted } from "effect"
import * as RedisIdentifyLimits from "../src/RedisIdentifyLimits.ts"

const redisUrl = process.env.REDIS_URL

/** A node's limits (each its own connection), on keys no other run shares. */
const node = (prefix: string, limits: IdentifyLimits.Limits) =>
  Effect.map(
    Layer.build(RedisIdentifyLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix, limits })),
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
})
