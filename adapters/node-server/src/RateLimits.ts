/**
 * The server's rate limiter: bucket sizes from config, counters in Redis when REDIS_URL is set (one
 * limit across all nodes) or in this process otherwise.
 */
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Layer, Option } from "effect"
import * as RedisModule from "./RedisModule.ts"
import type { ServerConfig } from "./ServerConfig.ts"

/** The route limiter with the configured buckets, beside the domains' quotas. */
const withQuotas = <E, R>(routes: Layer.Layer<RouteLimiter.RouteLimiter, E, R | RouteBuckets.RouteBuckets>) =>
  Layer.mergeAll(routes.pipe(Layer.provide(RouteBuckets.RouteBuckets.layerConfig)), QuotaLimiter.QuotaLimiter.layer())

/**
 * Route limits and the domains' quotas. With Redis both count there over one connection (route
 * limits in one script call for the requests of an event-loop turn); without, the route limits count in this process directly
 * (the same answers, a fraction of the cost on every request) and the quotas in effect's memory store.
 */
export const layer = (config: ServerConfig) =>
  Option.match(config.redisUrl, {
    onSome: (url) =>
      withQuotas(RouteLimiter.RouteLimiter.layerRedis({ prefix: `${config.redisPrefix}rl:` })).pipe(
        Layer.provide(RateLimitStore.layerRedis({ prefix: `${config.redisPrefix}rl:` })),
        Layer.provide(RedisModule.layer(({ RedisRateLimits }) => RedisRateLimits.connection({ url })))
      ),
    onNone: () => withQuotas(RouteLimiter.RouteLimiter.layerInProcess).pipe(Layer.provide(RateLimitStore.layerMemory))
  })
