/**
 * The server's rate limiter: bucket sizes from config, counters in Redis when REDIS_URL is set (one
 * limit across all nodes) or in this process otherwise.
 */
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { RedisRateLimits } from "@veche/redis"
import { Layer, Option } from "effect"
import type { ServerConfig } from "./ServerConfig.ts"

export const store = (config: ServerConfig) =>
  Option.match(config.redisUrl, {
    onSome: (url) => RedisRateLimits.layer({ url }),
    onNone: () => RateLimitStore.layerMemory
  })

/**
 * Route limits and the domains' quotas, over one counter store. Without Redis the route limits
 * count in this process directly (the same answers, a fraction of the cost on every request).
 */
export const layer = (config: ServerConfig) =>
  Layer.mergeAll(
    Option.isSome(config.redisUrl)
      ? RouteLimiter.RouteLimiter.layer.pipe(Layer.provide(RouteBuckets.RouteBuckets.layerConfig))
      : RouteLimiter.RouteLimiter.layerInProcess.pipe(Layer.provide(RouteBuckets.RouteBuckets.layerConfig)),
    QuotaLimiter.QuotaLimiter.layer()
  ).pipe(Layer.provide(store(config)))
