/**
 * How many sessions a bot may start (`session_start_limit`): one IDENTIFY per `max_concurrency`
 * bucket (`shard_id % max_concurrency`) per 5 seconds, and a daily total counted from the first
 * start of the day. Behind a port so several nodes can share one store (Redis: an `INCR` with a
 * day's expiry, a `SET NX PX 5000` per bucket); `layerMemory` counts in this process, on the Clock.
 * `GET /gateway/bot` reports the same budget.
 */
import { Clock, Context, Effect, Layer } from "effect"

export interface Budget {
  readonly total: number
  readonly remaining: number
  /** Milliseconds until the daily count starts over. */
  readonly reset_after: number
  readonly max_concurrency: number
}

export type Outcome = "Started" | "BucketBusy" | "DailyLimitReached"

export interface Limits {
  /** Session starts a day (the platform's default for a bot). */
  readonly total: number
  readonly maxConcurrency: number
}

export const DEFAULT_LIMITS: Limits = { total: 1000, maxConcurrency: 1 }
export const BUCKET_MS = 5_000
export const DAY_MS = 86_400_000

export class IdentifyLimits extends Context.Service<
  IdentifyLimits,
  {
    /** Counts one IDENTIFY of `botId` on `shardId`, unless its bucket or its day is spent. */
    readonly start: (botId: string, shardId: number) => Effect.Effect<Outcome>
    readonly budget: (botId: string) => Effect.Effect<Budget>
  }
>()("@veche/gateway/IdentifyLimits") {
  static readonly layerMemory = (limits: Limits = DEFAULT_LIMITS): Layer.Layer<IdentifyLimits> =>
    Layer.sync(IdentifyLimits, () => {
      const days = new Map<string, { count: number; resetsAt: number }>()
      const buckets = new Map<string, number>()
      const day = (botId: string, now: number) => {
        const found = days.get(botId)
        if (found !== undefined && found.resetsAt > now) return found
        if (found !== undefined) days.delete(botId)
        return undefined
      }
      const budgetAt = (botId: string, now: number): Budget => {
        const current = day(botId, now)
        return {
          total: limits.total,
          remaining: Math.max(0, limits.total - (current?.count ?? 0)),
          reset_after: current === undefined ? 0 : current.resetsAt - now,
          max_concurrency: limits.maxConcurrency
        }
      }
      return IdentifyLimits.of({
        start: (botId, shardId) =>
          Effect.map(Clock.currentTimeMillis, (now): Outcome => {
            const current = day(botId, now)
            if ((current?.count ?? 0) >= limits.total) return "DailyLimitReached"
            const bucket = `${botId}:${shardId % limits.maxConcurrency}`
            const busyUntil = buckets.get(bucket)
            if (busyUntil !== undefined && busyUntil > now) return "BucketBusy"
            buckets.set(bucket, now + BUCKET_MS)
            if (current === undefined) days.set(botId, { count: 1, resetsAt: now + DAY_MS })
            else current.count += 1
            return "Started"
          }),
        budget: (botId) => Effect.map(Clock.currentTimeMillis, (now) => budgetAt(botId, now))
      })
    })
}
