/**
 * Where the counters live: in this process (one node), or in Redis so several nodes enforce one
 * limit together. The Redis layer needs effect's `Redis` service; the host supplies the driver
 * (the reference server uses @effect/platform-node's NodeRedis on REDIS_URL).
 */
import { Layer } from "effect"
import { RateLimiter, type Redis } from "effect/persistence"

export const layerMemory: Layer.Layer<RateLimiter.RateLimiter> = RateLimiter.layer.pipe(
  Layer.provide(RateLimiter.layerStoreMemory)
)

/** Where the counters' keys start in Redis, unless the host says otherwise. */
export const DEFAULT_PREFIX = "veche:rl:"

export const layerRedis = (
  options: { readonly prefix?: string } = {}
): Layer.Layer<RateLimiter.RateLimiter, never, Redis.Redis> =>
  RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreRedis({ prefix: options.prefix ?? DEFAULT_PREFIX })))
