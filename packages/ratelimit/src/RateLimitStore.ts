/**
 * Where the counters live: in this process (one node), or in Redis so several nodes enforce one
 * limit together. The Redis layer needs effect's `Redis` service; the host supplies the driver
 * (the reference server uses @effect/platform-node's NodeRedis on REDIS_URL).
 *
 * In memory, fixed-window counters (the only kind the limiters use) live in `WindowCounters`,
 * which sweeps expired ones: effect's memory store keeps every key it has seen, so each new client
 * address a quota counted would stay in memory for good.
 */
import { Duration, Effect, Layer } from "effect"
import { RateLimiter, Redis } from "effect/persistence"
import * as GiveBackScript from "./GiveBackScript.ts"
import * as WindowCounters from "./WindowCounters.ts"

/** effect's memory store with its fixed windows kept in `counters` (the other algorithms as it keeps them). */
export const layerMemoryOn = (counters: WindowCounters.WindowCounters): Layer.Layer<RateLimiter.RateLimiter> =>
  RateLimiter.layer.pipe(
    Layer.provide(
      Layer.effect(
        RateLimiter.RateLimiterStore,
        Effect.map(RateLimiter.RateLimiterStore, (store) =>
          RateLimiter.RateLimiterStore.of({
            ...store,
            fixedWindow: (options) =>
              Effect.clockWith((clock) =>
                Effect.sync(() =>
                  counters.step(
                    options.key,
                    options.tokens,
                    Duration.toMillis(options.refillRate),
                    options.limit,
                    clock.currentTimeMillisUnsafe()
                  )
                )
              )
          })
        )
      ).pipe(Layer.provide(RateLimiter.layerStoreMemory))
    )
  )

/** Counters in this process, swept as they expire; each build has its own. */
export const layerMemory: Layer.Layer<RateLimiter.RateLimiter> = Layer.unwrap(
  Effect.sync(() => layerMemoryOn(WindowCounters.make()))
)

/** Where the counters' keys start in Redis, unless the host says otherwise. */
export const DEFAULT_PREFIX = "veche:rl:"

/**
 * effect's Redis store, except that a negative use (a quota's give-back) goes through
 * `GiveBackScript`, which never creates a counter: effect's script would store the negative count
 * for a key that had expired, and a fresh window would then allow one use more than its limit.
 */
export const layerRedis = (
  options: { readonly prefix?: string } = {}
): Layer.Layer<RateLimiter.RateLimiter, never, Redis.Redis> => {
  const prefix = options.prefix ?? DEFAULT_PREFIX
  return RateLimiter.layer.pipe(
    Layer.provide(
      Layer.effect(
        RateLimiter.RateLimiterStore,
        Effect.gen(function* () {
          const store = yield* RateLimiter.makeStoreRedis({ prefix })
          const giveBack = (yield* Redis.Redis).eval(GiveBackScript.script)
          return RateLimiter.RateLimiterStore.of({
            ...store,
            fixedWindow: (step) =>
              step.tokens >= 0
                ? store.fixedWindow(step)
                : giveBack(`${prefix}${step.key}`, step.tokens, Duration.toMillis(step.refillRate)).pipe(
                    Effect.map(([count, ttlMs]) => [Number(count), ttlMs] as const),
                    Effect.mapError(
                      (e) =>
                        new RateLimiter.RateLimiterError({
                          reason: new RateLimiter.RateLimitStoreError({
                            message: "Failed to give units back",
                            cause: e.cause
                          })
                        })
                    )
                  )
          })
        })
      )
    )
  )
}
