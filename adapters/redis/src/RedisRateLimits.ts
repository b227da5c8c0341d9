/**
 * Rate-limit counters in Redis, so that every node behind a load balancer enforces one limit
 * together. Connects when the layer is built (a wrong REDIS_URL stops the start with a clear
 * error) and disconnects when it closes. The route limits count over `connection` with
 * `RouteLimiter.layerRedis` (one round trip a request); the quotas through `layer`'s store.
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { RateLimitStore } from "@veche/ratelimit"
import { Layer, Redacted } from "effect"
import type { RateLimiter, Redis } from "effect/persistence"

export interface Options {
  readonly url: Redacted.Redacted<string>
  /** Where the counters' keys start (default `RateLimitStore.DEFAULT_PREFIX`). */
  readonly prefix?: string
}

const prefixOf = (options: Options) => (options.prefix === undefined ? {} : { prefix: options.prefix })

/** One client for everything the limiters count (the driver: node-redis through @effect/platform-node). */
export const connection = (options: Options): Layer.Layer<Redis.Redis, Redis.RedisError> =>
  NodeRedis.layer({ url: Redacted.value(options.url) })

/** effect's RateLimiter over Redis: the store the domains' quotas count in. */
export const layer = (options: Options): Layer.Layer<RateLimiter.RateLimiter, Redis.RedisError> =>
  RateLimitStore.layerRedis(prefixOf(options)).pipe(Layer.provide(connection(options)))
