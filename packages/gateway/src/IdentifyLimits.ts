/**
 * How many sessions a bot may start (`session_start_limit`): one IDENTIFY per `max_concurrency`
 * bucket (`shard_id % max_concurrency`) per 5 seconds, and a daily total counted from the first
 * start of the day. Behind a port so several nodes can share one store (Redis: an `INCR` with a
 * day's expiry, a `SET NX PX 5000` per bucket); `layerMemory` counts in this process, on the Clock.
 * `GET /gateway/bot` reports the same budget.
 *
 * A user (not a bot) has no `session_start_limit` to read, but the platform limits how often an
 * account identifies too; the rule here: at most `burst` identifies in any fixed 5-second window
 * (several tabs opening at once pass; a reconnect loop does not) and `total` a day, counted per user
 * across nodes the same way. Past the burst the answer is op 9 (identify again shortly), past the
 * day a close with 4008. A RESUME is not a start and counts for neither.
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

export interface UserLimits {
  /** Identifies a day per user. */
  readonly total: number
  /** Identifies per user in one 5-second window. */
  readonly burst: number
}

export const DEFAULT_USER_LIMITS: UserLimits = { total: 1000, burst: 5 }
export const BUCKET_MS = 5_000
export const DAY_MS = 86_400_000

export class IdentifyLimits extends Context.Service<
  IdentifyLimits,
  {
    /** Counts one IDENTIFY of `botId` on `shardId`, unless its bucket or its day is spent. */
    readonly start: (botId: string, shardId: number) => Effect.Effect<Outcome>
    readonly budget: (botId: string) => Effect.Effect<Budget>
    /** Counts one IDENTIFY of a user, unless their 5-second burst or their day is spent. */
    readonly startUser: (userId: string) => Effect.Effect<Outcome>
  }
>()("@veche/gateway/IdentifyLimits") {
  static readonly layerMemory = (
    limits: Limits = DEFAULT_LIMITS,
    userLimits: UserLimits = DEFAULT_USER_LIMITS
  ): Layer.Layer<IdentifyLimits> =>
    Layer.sync(IdentifyLimits, () => {
      const days = new Map<string, { count: number; resetsAt: number }>()
      const buckets = new Map<string, number>()
      const userDays = new Map<string, { count: number; resetsAt: number }>()
      const userBursts = new Map<string, { count: number; resetsAt: number }>()
      /** A fixed window's count after one more, from its first use; expired windows are dropped. */
      const counted = (
        windows: Map<string, { count: number; resetsAt: number }>,
        key: string,
        now: number,
        length: number
      ) => {
        const found = windows.get(key)
        if (found !== undefined && found.resetsAt > now) return found
        const fresh = { count: 0, resetsAt: now + length }
        windows.set(key, fresh)
        if (windows.size > 10_000) for (const [k, w] of windows) if (w.resetsAt <= now) windows.delete(k)
        return fresh
      }
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
        budget: (botId) => Effect.map(Clock.currentTimeMillis, (now) => budgetAt(botId, now)),
        startUser: (userId) =>
          Effect.map(Clock.currentTimeMillis, (now): Outcome => {
            const day = counted(userDays, userId, now, DAY_MS)
            if (day.count >= userLimits.total) return "DailyLimitReached"
            const burst = counted(userBursts, userId, now, BUCKET_MS)
            burst.count += 1
            if (burst.count > userLimits.burst) return "BucketBusy"
            day.count += 1
            return "Started"
          })
      })
    })
}
