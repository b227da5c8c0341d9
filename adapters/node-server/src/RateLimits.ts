/**
 * The server's rate limiter: bucket sizes from config, counters in Redis when REDIS_URL is set (one
 * limit across all nodes) or in this process otherwise.
 */
import { RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { RedisRateLimits } from "@veche/redis"
import { Layer, Option } from "effect"
import type { ServerConfig } from "./ServerConfig.ts"

export const store = (config: ServerConfig) =>
  Option.match(config.redisUrl, {
    onSome: (url) => RedisRateLimits.layer({ url }),
    onNone: () => RateLimitStore.layerMemory
  })

export const layer = (config: ServerConfig) =>
  RouteLimiter.RouteLimiter.layer.pipe(
    Layer.provide(RouteBuckets.RouteBuckets.layerConfig),
    Layer.provide(store(config))
  )
