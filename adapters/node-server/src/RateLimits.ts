/**
 * The server's rate limiter: bucket sizes from config, counters in Redis when REDIS_URL is set (one
 * limit across all nodes) or in this process otherwise.
 */
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Layer, Option } from "effect"
import * as RedisModule from "./RedisModule.ts"
import type { ServerConfig } from "./ServerConfig.ts"

/** The route limiter with the configured buckets, beside the domains' quotas. */
const withQuotas = <E, R, E2, R2>(
  routes: Layer.Layer<RouteLimiter.RouteLimiter, E, R | RouteBuckets.RouteBuckets>,
  quotas: Layer.Layer<QuotaLimiter.QuotaLimiter, E2, R2>
) => Layer.mergeAll(routes.pipe(Layer.provide(RouteBuckets.RouteBuckets.layerConfig)), quotas)

/**
 * Route limits and the domains' quotas. With Redis both count there over one connection (route
 * limits in one script call for the requests of an event-loop turn); without, both count in this
 * process directly, one synchronous step a count (the same answers, a fraction of the cost).
 */
export const layer = (config: ServerConfig) =>
  Option.match(config.redisUrl, {
    onSome: (url) =>
      withQuotas(
        RouteLimiter.RouteLimiter.layerRedis({ prefix: `${config.redisPrefix}rl:` }),
        QuotaLimiter.QuotaLimiter.layer()
      ).pipe(
        Layer.provide(RateLimitStore.layerRedis({ prefix: `${config.redisPrefix}rl:` })),
        Layer.provide(RedisModule.layer(({ RedisRateLimits }) => RedisRateLimits.connection({ url })))
      ),
    onNone: () => withQuotas(RouteLimiter.RouteLimiter.layerInProcess, QuotaLimiter.QuotaLimiter.layerInProcess())
  })
