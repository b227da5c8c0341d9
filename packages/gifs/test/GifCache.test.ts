/** The memory GifCache: the contract, expiry on the clock, and its bound on entries. */
import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { GifCache } from "../src/GifCache.ts"
import { gifCacheContract } from "./contracts/GifCacheContract.ts"

describe("GifCache (memory)", () => {
  layer(GifCache.layerMemory())((it) => gifCacheContract(it))

  it.effect("an entry expires with its time-to-live", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      yield* cache.set("k", "v", Duration.minutes(2))
      yield* TestClock.adjust(Duration.seconds(119))
      expect(yield* cache.get("k")).toEqual(Option.some("v"))
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* cache.get("k")).toEqual(Option.none())
    }).pipe(Effect.provide(GifCache.layerMemory()))
  )

  it.effect("past its bound the oldest entries go first", () =>
    Effect.gen(function* () {
      const cache = yield* GifCache
      for (const k of ["a", "b", "c", "d"]) yield* cache.set(k, k, Duration.minutes(1))
      // "a" was set again: it is the newest now, so "b" and "c"... go as "e" and "f" arrive.
      yield* cache.set("a", "a2", Duration.minutes(1))
      yield* cache.set("e", "e", Duration.minutes(1))
      expect(yield* cache.get("b")).toEqual(Option.none())
      expect(yield* cache.get("a")).toEqual(Option.some("a2"))
      expect(yield* cache.get("c")).toEqual(Option.some("c"))
      expect(yield* cache.get("e")).toEqual(Option.some("e"))
    }).pipe(Effect.provide(GifCache.layerMemory({ maxEntries: 4 })))
  )
})
