/** @veche/redis: the Redis-backed adapters shared by several nodes. */

export * as RedisDispatchBus from "./RedisDispatchBus.ts"
export * as RedisIdentifyLimits from "./RedisIdentifyLimits.ts"
export * as RedisPresenceStore from "./RedisPresenceStore.ts"
export * as RedisRateLimits from "./RedisRateLimits.ts"
