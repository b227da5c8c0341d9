/** A counter store that is down: every call fails as an unreachable Redis would. */
import { Effect, Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import { RouteCountConnection } from "../src/RouteCountConnection.ts"

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

/** The route limiter's Redis connection, down: every command fails with the driver's error. */
export const routeCounts: Layer.Layer<RouteCountConnection> = Layer.succeed(
  RouteCountConnection,
  RouteCountConnection.of({ send: (_command, _onReply, onFailure) => onFailure(new Error("connection refused")) })
)
