/**
 * The one behaviour suite every GifCache adapter must pass: on memory in every run, on Redis when
 * REDIS_URL is set (adapters/redis/test/RedisGifCache.test.ts). Expiry by time is each adapter's
 * own test (the memory one moves the test clock; Redis keeps its own time).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import { GifCache } from "../../src/GifCache.ts"

export type GifCacheIt = Vitest.MethodsNonLive<GifCache>

let counter = 0
/** Keys unique per run, so a shared Redis never answers an earlier run's entry. */
const key = (name: string) => `contract:${process.pid}:${Date.now()}:${++counter}:${name}`

const MINUTE = Duration.minutes(1)

export const gifCacheContract = (it: GifCacheIt) => {
  it.effect("answers what was kept, and nothing for a key never set", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      const k = key("roundtrip")
      expect(yield* cache.get(k)).toEqual(Option.none())
      const value = JSON.stringify({ gifs: [], page: 1, limit: 24, has_more: false, text: "привет ✓" })
      yield* cache.set(k, value, MINUTE)
      expect(yield* cache.get(k)).toEqual(Option.some(value))
    })
  )

  it.effect("a second set replaces the first; keys are independent", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      const a = key("a")
      const b = key("b")
      yield* cache.set(a, "first", MINUTE)
      yield* cache.set(a, "second", MINUTE)
      yield* cache.set(b, "other", MINUTE)
      expect(yield* cache.get(a)).toEqual(Option.some("second"))
      expect(yield* cache.get(b)).toEqual(Option.some("other"))
    })
  )

  it.effect("a zero time-to-live keeps nothing", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      const k = key("zero")
      yield* cache.set(k, "value", Duration.zero)
      expect(yield* cache.get(k)).toEqual(Option.none())
    })
  )

  it.effect("keys with spaces, colons and any text stay apart", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      const k = key("gifs:dev:search:ru:high:1:24:funny cat")
      yield* cache.set(k, "cats", MINUTE)
      expect(yield* cache.get(`${k} `)).toEqual(Option.none())
      expect(yield* cache.get(k)).toEqual(Option.some("cats"))
    })
  )
}
