/**
 * Request counters kept in this process, counted the way effect's RateLimiter counts a "fixed
 * window" (its memory and Redis stores alike): every request pushes the key's expiry on by
 * window / limit, and the count starts again once the expiry has passed. So a bucket of 5 per 10 s
 * answers the same remaining counts and reset times here as through the store.
 *
 * One synchronous step per request: the route limiter checks every request against two counters,
 * and an effect per step through the store cost a third of a small route's server time. Expired
 * counters are swept as the map grows, so callers that come once do not stay in memory.
 *
 * `step` is the same counter as effect's RateLimiterStore `fixedWindow` (any number of tokens, 0 to
 * look, negative to give back): `QuotaLimiter.layerInProcess` counts the quotas on it directly, and
 * `RateLimitStore.layerMemory` puts effect's RateLimiter on it, so their counters are swept too
 * (effect's own memory store keeps every key it has seen).
 */

export interface Counted {
  /** Whether the request fits; when it does not, nothing was counted. */
  readonly allowed: boolean
  /** Requests counted in the window, this one included when allowed. */
  readonly count: number
  /** Milliseconds until the counter is back to zero. */
  readonly resetAfterMs: number
}

export interface WindowCounters {
  readonly count: (key: string, limit: number, windowMs: number, nowMs: number) => Counted
  /** effect's `fixedWindow` step: `[count, ttlMs]` after taking `tokens`; past `limit` nothing is taken. */
  readonly step: (
    key: string,
    tokens: number,
    refillMs: number,
    limit: number | undefined,
    nowMs: number
  ) => readonly [count: number, ttlMs: number]
  /** Counters held now (expired ones included until the next sweep). */
  readonly size: () => number
}

/** To the nanosecond, as effect's Duration keeps times: both limiters then answer the same figures. */
const nanos = (ms: number) => Math.round(ms * 1e6) / 1e6

interface Counter {
  count: number
  expiresAt: number
}

/** `sweepAt`: sweep expired counters each time this many more have been added since the last sweep. */
export const make = (options: { readonly sweepAt?: number } = {}): WindowCounters => {
  const sweepAt = options.sweepAt ?? 10_000
  const counters = new Map<string, Counter>()
  let nextSweep = sweepAt

  const sweep = (nowMs: number) => {
    for (const [key, counter] of counters) if (counter.expiresAt <= nowMs) counters.delete(key)
    nextSweep = counters.size + sweepAt
  }

  /** The key's live counter, a fresh one when it had none or it expired. */
  const live = (key: string, nowMs: number): Counter => {
    let counter = counters.get(key)
    if (counter === undefined || counter.expiresAt <= nowMs) {
      if (counter === undefined && counters.size >= nextSweep) sweep(nowMs)
      counter = { count: 0, expiresAt: nowMs }
      counters.set(key, counter)
    }
    return counter
  }

  return {
    count: (key, limit, windowMs, nowMs) => {
      const counter = live(key, nowMs)
      if (counter.count + 1 > limit) {
        return { allowed: false, count: counter.count + 1, resetAfterMs: nanos(counter.expiresAt - nowMs) }
      }
      counter.count += 1
      counter.expiresAt += windowMs / limit
      return { allowed: true, count: counter.count, resetAfterMs: nanos(counter.expiresAt - nowMs) }
    },
    step: (key, tokens, refillMs, limit, nowMs) => {
      const counter = live(key, nowMs)
      if (limit !== undefined && counter.count + tokens > limit)
        return [counter.count + tokens, counter.expiresAt - nowMs]
      counter.count += tokens
      counter.expiresAt += refillMs * tokens
      return [counter.count, counter.expiresAt - nowMs]
    },
    size: () => counters.size
  }
}
