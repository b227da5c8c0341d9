/** A counter store that is down: every call fails as an unreachable Redis would. */
import { Effect, Layer } from "effect"
import { RateLimiter, Redis } from "effect/persistence"

const down = Effect.fail(
  new RateLimiter.RateLimiterError({ reason: new RateLimiter.RateLimitStoreError({ message: "store is down" }) })
)

export const layer: Layer.Layer<RateLimiter.RateLimiter> = RateLimiter.layer.pipe(
  Layer.provide(
    Layer.succeed(RateLimiter.RateLimiterStore, {
      fixedWindow: () => down,
      tokenBucket: () => down,
      adaptiveConsume: () => down,
      adaptiveFeedback: () => down
    } as unknown as RateLimiter.RateLimiterStore["Service"])
  )
)

/** A Redis that is down: every command and script fails with the driver's error. */
const redisDown = Effect.fail(new Redis.RedisError({ cause: new Error("connection refused") }))

export const redis: Layer.Layer<Redis.Redis> = Layer.succeed(Redis.Redis, {
  send: () => redisDown,
  eval: () => () => redisDown,
  subscribe: () => redisDown,
  reserve: redisDown
} as unknown as Redis.Redis["Service"])
