/**
 * Quotas for the domains, counted where the route limits count (Redis, or this process). Unlike
 * route limits they fail closed: when the counter store is unreachable nothing that costs money or
 * leaks identity happens.
 *
 * `layer` counts through effect's RateLimiter (its store: Redis, or memory); `layerInProcess`
 * counts in this process in one synchronous step a call, with the same answers: a login steps
 * seven counters (fourteen from an IPv6 address), and each step through the store is a chain of
 * effects and four durations.
 */
import { Context, Duration, Effect, Layer, Result, Schema } from "effect"
import { RateLimiter } from "effect/persistence"
import * as AddressGroups from "./AddressGroups.ts"
import { ADDRESS_QUOTAS, DEFAULT_QUOTAS, type Name, type Quota } from "./Quotas.ts"
import * as WindowCounters from "./WindowCounters.ts"

/** The quota is used up for now; `retryAfterMs` until one unit is free again. */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  quota: Schema.String,
  retryAfterMs: Schema.Number
}) {}

/** The counter store cannot be reached: refuse rather than act uncounted. */
export class QuotaUnavailable extends Schema.TaggedError<QuotaUnavailable>()("QuotaUnavailable", {
  quota: Schema.String
}) {}

export interface Remaining {
  readonly remaining: number
  readonly resetAfterMs: number
}

interface Counter {
  readonly key: string
  readonly limit: number
  readonly windowMs: number
}

/**
 * The counters one use of `quota` by `key` steps, narrowest first: the key itself, or for an
 * address quota (`ADDRESS_QUOTAS`) the address's group and, for IPv6, its /48 with a larger limit.
 */
export const countersOf = (quota: Name, key: string, { limit, windowMs }: Quota): ReadonlyArray<Counter> => {
  if (!ADDRESS_QUOTAS.has(quota)) return [{ key: `q:${quota}:${key}`, limit, windowMs }]
  const at = key.lastIndexOf("@")
  const scope = key.slice(0, at + 1)
  const groups = AddressGroups.of(key.slice(at + 1))
  const narrow = { key: `q:${quota}:${scope}${groups.narrow}`, limit, windowMs }
  return groups.network === undefined
    ? [narrow]
    : [narrow, { key: `q:${quota}:${scope}${groups.network}`, limit: limit * AddressGroups.NETWORK_FACTOR, windowMs }]
}

/** What is left of several counters: the scarcest one's. */
const scarcest = (counted: ReadonlyArray<Remaining>): Remaining =>
  counted.reduce((least, next) => (next.remaining < least.remaining ? next : least))

export class QuotaLimiter extends Context.Service<
  QuotaLimiter,
  {
    /** Counts one use for `key`; fails when the quota was already used up. */
    readonly consume: (quota: Name, key: string) => Effect.Effect<Remaining, QuotaExceeded | QuotaUnavailable>
    /**
     * `consume` for callers to whom a used-up quota is the usual answer, not a refusal (the captcha's
     * free attempt, used up by every attempt but an address's first): counts the same units as
     * `consume` would and answers whether the use was allowed, without building a failure for a
     * used-up quota (each failure on the way captures a stack trace: three a call).
     */
    readonly tryConsume: (quota: Name, key: string) => Effect.Effect<boolean, QuotaUnavailable>
    /**
     * Whether a use would be allowed now, without counting one. Not for guarding a guess: parallel
     * guesses all pass a check made before any of them is counted. Take a unit with `consume` first
     * and `giveBack` it when the guess turns out right.
     */
    readonly check: (quota: Name, key: string) => Effect.Effect<Remaining, QuotaExceeded | QuotaUnavailable>
    /**
     * Returns one unit taken by `consume` (the attempt it paid for was not a failure). Best effort:
     * if the store cannot be reached the unit stays counted, which only errs on the strict side.
     */
    readonly giveBack: (quota: Name, key: string) => Effect.Effect<void>
  }
>()("@veche/ratelimit/QuotaLimiter") {
  static readonly layer = (
    overrides: Partial<Record<Name, Quota>> = {}
  ): Layer.Layer<QuotaLimiter, never, RateLimiter.RateLimiter> =>
    Layer.effect(
      QuotaLimiter,
      Effect.gen(function* () {
        const limiter = yield* RateLimiter.RateLimiter
        const quotas: Record<Name, Quota> = { ...DEFAULT_QUOTAS, ...overrides }

        // Narrowest counter first: once it refuses, the wider ones are not counted for nothing. Most
        // quotas have one counter (any quota but an address one, and IPv4 addresses): counted alone.
        const count = (quota: Name, key: string, tokens: number) => {
          const counters = countersOf(quota, key, quotas[quota])
          return counters.length === 1
            ? countOne(quota, counters[0] as Counter, tokens)
            : Effect.map(
                Effect.forEach(counters, (counter) => countOne(quota, counter, tokens)),
                scarcest
              )
        }

        // One continuation for both outcomes: a login counts eight times.
        const countOne = (
          quota: Name,
          { key, limit, windowMs }: Counter,
          tokens: number
        ): Effect.Effect<Remaining, QuotaExceeded | QuotaUnavailable> =>
          Effect.matchEffect(limiter.consume({ key, limit, window: Duration.millis(windowMs), tokens }), {
            onSuccess: (result) =>
              Effect.succeed({
                remaining: result.remaining,
                resetAfterMs: Duration.toMillis(result.resetAfter)
              }),
            onFailure: (e): Effect.Effect<never, QuotaExceeded | QuotaUnavailable> =>
              e.reason._tag === "RateLimitExceeded"
                ? Effect.fail(new QuotaExceeded({ quota, retryAfterMs: Duration.toMillis(e.reason.retryAfter) }))
                : Effect.andThen(
                    Effect.logError("quota store unavailable; refusing", e.reason),
                    Effect.fail(new QuotaUnavailable({ quota }))
                  )
          })

        // `consume`'s walk, narrowest counter first, each looked at (no token) before one is taken
        // from it: a full counter stops the walk as `consume`'s refusal would, units taken from the
        // counters before it staying taken, as they do there. A counter that fills between the look
        // and the take refuses as in `consume`.
        const tryConsume = (quota: Name, key: string) =>
          Effect.suspend(() => {
            const counters = countersOf(quota, key, quotas[quota])
            const step = (index: number): Effect.Effect<boolean, QuotaExceeded | QuotaUnavailable> => {
              const counter = counters[index]
              if (counter === undefined) return Effect.succeed(true)
              return Effect.flatMap(countOne(quota, counter, 0), (left) =>
                left.remaining > 0
                  ? Effect.flatMap(countOne(quota, counter, 1), () => step(index + 1))
                  : Effect.succeed(false)
              )
            }
            return step(0).pipe(Effect.catchTag("QuotaExceeded", () => Effect.succeed(false)))
          })

        return QuotaLimiter.of({
          consume: (quota, key) => count(quota, key, 1),
          tryConsume,
          check: (quota, key) =>
            Effect.flatMap(count(quota, key, 0), (left) =>
              left.remaining > 0
                ? Effect.succeed(left)
                : Effect.fail(new QuotaExceeded({ quota, retryAfterMs: left.resetAfterMs }))
            ),
          // A negative use: the counter goes down by one and its expiry back by one step.
          giveBack: (quota, key) => Effect.ignore(count(quota, key, -1))
        })
      })
    )

  /**
   * Counters in this process (one node), counted as `layer` counts them on effect's memory store
   * (`RateLimitStore.layerMemoryOn`): the same remaining counts, reset times and refusals, each call
   * one synchronous step. Nothing here can be unreachable, so it never answers `QuotaUnavailable`.
   */
  static readonly layerInProcessOn = (
    counters: WindowCounters.WindowCounters,
    overrides: Partial<Record<Name, Quota>> = {}
  ): Layer.Layer<QuotaLimiter> =>
    Layer.sync(QuotaLimiter, () => {
      const quotas: Record<Name, Quota> = { ...DEFAULT_QUOTAS, ...overrides }
      // A counter's window and step as effect's RateLimiter works them out (a window of at least
      // 1 ms, divided to the nanosecond), kept per window and limit: built once, not per count.
      interface Window {
        readonly duration: Duration.Duration
        readonly windowMs: number
        readonly refills: Map<number, number>
      }
      const windows = new Map<number, Window>()
      const windowOf = (windowMs: number): Window => {
        let window = windows.get(windowMs)
        if (window === undefined) {
          const duration = Duration.max(Duration.millis(windowMs), Duration.millis(1))
          window = { duration, windowMs: Duration.toMillis(duration), refills: new Map() }
          windows.set(windowMs, window)
        }
        return window
      }
      const refillOf = (windowMs: number, limit: number) => {
        const { duration, refills } = windowOf(windowMs)
        let refill = refills.get(limit)
        if (refill === undefined) {
          refill = Duration.toMillis(Duration.divideUnsafe(duration, limit))
          refills.set(limit, refill)
        }
        return refill
      }
      /** A reset time as effect's memory store answers it: through a Duration, to the nanosecond. */
      const afterMs = (ms: number) => (Number.isInteger(ms) ? ms : Duration.toMillis(Duration.millis(ms)))

      const countOne = (
        quota: Name,
        { key, limit, windowMs }: Counter,
        tokens: number,
        nowMs: number
      ): Result.Result<Remaining, QuotaExceeded> => {
        if (tokens > limit) return Result.fail(new QuotaExceeded({ quota, retryAfterMs: windowOf(windowMs).windowMs }))
        const [count, ttlMs] = counters.step(key, tokens, refillOf(windowMs, limit), limit, nowMs)
        const remaining = limit - count
        return remaining < 0
          ? Result.fail(new QuotaExceeded({ quota, retryAfterMs: afterMs(ttlMs) }))
          : Result.succeed({ remaining, resetAfterMs: afterMs(ttlMs) })
      }

      // Narrowest first; the first refusal ends the walk, the scarcest of the rest is the answer.
      const count = (
        quota: Name,
        key: string,
        tokens: number,
        nowMs: number
      ): Result.Result<Remaining, QuotaExceeded> => {
        let least: Result.Success<Remaining, QuotaExceeded> | undefined
        for (const counter of countersOf(quota, key, quotas[quota])) {
          const counted = countOne(quota, counter, tokens, nowMs)
          if (Result.isFailure(counted)) return counted
          if (least === undefined || counted.success.remaining < least.success.remaining) least = counted
        }
        // countersOf names one counter at least
        return least as Result.Success<Remaining, QuotaExceeded>
      }

      // `layer`'s walk: each counter looked at before a unit is taken from it, narrowest first.
      const tryConsume = (quota: Name, key: string, nowMs: number): boolean => {
        for (const counter of countersOf(quota, key, quotas[quota])) {
          const left = countOne(quota, counter, 0, nowMs)
          if (Result.isFailure(left) || left.success.remaining <= 0) return false
          if (Result.isFailure(countOne(quota, counter, 1, nowMs))) return false
        }
        return true
      }

      const at = <A, E>(step: (nowMs: number) => Result.Result<A, E>): Effect.Effect<A, E> =>
        Effect.clockWith((clock) => Effect.fromResult(step(clock.currentTimeMillisUnsafe())))

      return QuotaLimiter.of({
        consume: (quota, key) => at((nowMs) => count(quota, key, 1, nowMs)),
        tryConsume: (quota, key) =>
          Effect.clockWith((clock) => Effect.succeed(tryConsume(quota, key, clock.currentTimeMillisUnsafe()))),
        check: (quota, key) =>
          at((nowMs) => {
            const left = count(quota, key, 0, nowMs)
            return Result.isFailure(left) || left.success.remaining > 0
              ? left
              : Result.fail(new QuotaExceeded({ quota, retryAfterMs: left.success.resetAfterMs }))
          }),
        giveBack: (quota, key) =>
          Effect.clockWith((clock) => {
            count(quota, key, -1, clock.currentTimeMillisUnsafe())
            return Effect.void
          })
      })
    })

  /** `layerInProcessOn` its own counters, swept as they expire. */
  static readonly layerInProcess = (overrides: Partial<Record<Name, Quota>> = {}): Layer.Layer<QuotaLimiter> =>
    Layer.suspend(() => QuotaLimiter.layerInProcessOn(WindowCounters.make(), overrides))
}
