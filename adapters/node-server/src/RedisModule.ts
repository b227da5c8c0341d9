/**
 * `@veche/redis` (node-redis and the modules it brings: ~1300 files, several MB of heap) loads only
 * when REDIS_URL is set: a server without Redis never needs it. Imported while the server's layers
 * are built, before it listens, so no request waits for it.
 */
import { Effect, Layer } from "effect"

type RedisModule = typeof import("@veche/redis")

/** The layer `build` makes from `@veche/redis`, imported when the layer is built. */
export const layer = <A, E, R>(build: (redis: RedisModule) => Layer.Layer<A, E, R>): Layer.Layer<A, E, R> =>
  Layer.unwrap(
    Effect.map(
      Effect.promise(() => import("@veche/redis")),
      build
    )
  )
