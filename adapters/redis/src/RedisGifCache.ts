/**
 * The GIF proxy's cache in Redis, so every node behind a load balancer serves a cached page and the
 * provider is asked once per time-to-live for all of them. Entries expire in Redis (`SET … PX`).
 * Redis being down is a miss, logged, never an error: the route then asks the provider itself.
 */
import { GifCache } from "@veche/gifs"
import { Duration, Effect, Layer, Option } from "effect"
import { Redis } from "effect/persistence"

/** Where the cache's keys start in Redis, unless the host says otherwise. */
export const DEFAULT_PREFIX = "veche:gifs:"

export const layer = (options: { readonly prefix?: string } = {}): Layer.Layer<GifCache.GifCache, never, Redis.Redis> =>
  Layer.effect(
    GifCache.GifCache,
    Effect.map(Redis.Redis, (redis) => {
      const prefix = options.prefix ?? DEFAULT_PREFIX
      const warn = (what: string) => (error: Redis.RedisError) =>
        Effect.logWarning(`GIF cache: Redis ${what} failed; asking the provider`, error.cause)
      return GifCache.GifCache.of({
        get: (key) =>
          redis.send<string | null>("GET", `${prefix}${key}`).pipe(
            Effect.map((value) => (typeof value === "string" ? Option.some(value) : Option.none())),
            Effect.catch((error) => Effect.as(warn("GET")(error), Option.none<string>()))
          ),
        set: (key, value, ttl) => {
          const ms = Math.floor(Duration.toMillis(ttl))
          if (!(ms > 0)) return Effect.void
          return redis
            .send("SET", `${prefix}${key}`, value, "PX", String(ms))
            .pipe(Effect.asVoid, Effect.catch(warn("SET")))
        }
      })
    })
  )
