/** @veche/redis: the Redis-backed adapters shared by several nodes. */
export * as RedisRateLimits from "./RedisRateLimits.ts"
