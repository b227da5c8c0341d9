/**
 * @veche/ratelimit: route buckets and the global limit with the mirrored platform's headers and 429
 * (RouteLimiter), quotas for the domains (QuotaLimiter), and where the counters live (RateLimitStore).
 */
export * as AddressGroups from "./AddressGroups.ts"
export * as BucketId from "./BucketId.ts"
export * as QuotaLimiter from "./QuotaLimiter.ts"
export * as Quotas from "./Quotas.ts"
export * as RateLimitHeaders from "./RateLimitHeaders.ts"
export * as RateLimitStore from "./RateLimitStore.ts"
export * as RouteBuckets from "./RouteBuckets.ts"
export * as RouteCountBatch from "./RouteCountBatch.ts"
export * as RouteCountConnection from "./RouteCountConnection.ts"
export * as RouteLimiter from "./RouteLimiter.ts"
