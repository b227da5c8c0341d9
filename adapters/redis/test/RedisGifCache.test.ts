/**
 * The GIF cache in Redis: the GifCache contract, entries expiring in Redis after their
 * time-to-live, and Redis going away turning into misses rather than errors. Runs when REDIS_URL is
 * set (CI sets it).
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { GifCache } from "@veche/gifs"
import { gifCacheContract } from "@veche/gifs/test/contracts/GifCacheContract"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { Redis } from "effect/persistence"
import * as RedisGifCache from "../src/RedisGifCache.ts"
import * as RedisRateLimits from "../src/RedisRateLimits.ts"

const redisUrl = process.env.REDIS_URL
const prefix = `veche:test:gifs:${process.pid}:${Date.now()}:`
const connection = () => RedisRateLimits.connection({ url: Redacted.make(redisUrl ?? "") })

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RedisGifCache", () => {
  layer(RedisGifCache.layer({ prefix }).pipe(Layer.provideMerge(connection()), Layer.orDie), {
    excludeTestServices: true
  })((it) => {
    gifCacheContract(it)

    it.effect("an entry carries its time-to-live in Redis, under the prefix", () =>
      Effect.gen(function* () {
        const cache = yield* GifCache.GifCache
        const redis = yield* Redis.Redis
        yield* cache.set("ttl", "value", Duration.seconds(90))
        const ttl = yield* redis.send<number>("PTTL", `${prefix}ttl`)
        expect(ttl).toBeGreaterThan(80_000)
        expect(ttl).toBeLessThanOrEqual(90_000)
      }).pipe(Effect.orDie)
    )
  })

  it.effect("a Redis that fails is a miss, and a set that fails is nothing", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache.GifCache
      expect(yield* cache.get("anything")).toEqual(Option.none())
      yield* cache.set("anything", "value", Duration.minutes(1))
    }).pipe(
      Effect.provide(
        RedisGifCache.layer().pipe(
          Layer.provide(
            Layer.succeed(
              Redis.Redis,
              Redis.Redis.of({
                send: () => Effect.fail(new Redis.RedisError({ cause: new Error("connection refused") })),
                subscribe: () => Effect.die("unused"),
                eval: () => () => Effect.die("unused"),
                reserve: Effect.die("unused")
              })
            )
          )
        )
      )
    )
  )
})
