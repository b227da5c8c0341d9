/**
 * Rate-limit counters in Redis, so that every node behind a load balancer enforces one limit
 * together. Connects when the layer is built (a wrong REDIS_URL stops the start with a clear
 * error) and disconnects when it closes.
 */
import { NodeRedis } from "@effect/platform-node"
import { RateLimitStore } from "@veche/ratelimit"
import { Layer, Redacted } from "effect"
import type { RateLimiter, Redis } from "effect/persistence"

export const layer = (options: {
  readonly url: Redacted.Redacted<string>
  readonly prefix?: string
}): Layer.Layer<RateLimiter.RateLimiter, Redis.RedisError> =>
  RateLimitStore.layerRedis(options.prefix === undefined ? {} : { prefix: options.prefix }).pipe(
    Layer.provide(NodeRedis.layer({ url: Redacted.value(options.url) }))
  )
