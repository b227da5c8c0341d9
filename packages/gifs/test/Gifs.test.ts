/**
 * Gifs on memory layers with a recording provider: what the provider is told (customer id, locale,
 * content filter by age), what is cached and by what, and the pure helpers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Duration, Effect, Layer, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { TestClock } from "effect/testing"
import * as CustomerIds from "../src/CustomerIds.ts"
import { GifCache } from "../src/GifCache.ts"
import { type Audience, GifProvider, type PageRequest, type SearchRequest } from "../src/GifProvider.ts"
import { Gifs, normaliseQuery, providerLocale } from "../src/Gifs.ts"
import { GifsConfig } from "../src/GifsConfig.ts"
import { GifViewers, type Viewer } from "../src/GifViewers.ts"

const KEY = Redacted.make("a-test-customer-key-of-at-least-32-chars")
const ADULT = Snowflake.Snowflake.make("175928847299117063")
const MINOR = Snowflake.Snowflake.make("175928847299117064")
const BOT = Snowflake.Snowflake.make("175928847299117065")

const VIEWERS: Record<string, Viewer> = {
  [ADULT]: { locale: "en-US", dateOfBirth: "1990-05-01" },
  [MINOR]: { locale: "ru", dateOfBirth: "2010-05-01" },
  [BOT]: { locale: "ru", dateOfBirth: null }
}

const recorded: Array<{ kind: string; request: Audience }> = []

const provider = Layer.succeed(
  GifProvider,
  GifProvider.of({
    name: "recording",
    trending: (request: PageRequest) =>
      Effect.sync(() => {
        recorded.push({ kind: "trending", request })
        return { gifs: [], page: request.page, limit: request.limit, has_more: false }
      }),
    search: (request: SearchRequest) =>
      Effect.sync(() => {
        recorded.push({ kind: "search", request })
        return { gifs: [], page: request.page, limit: request.limit, has_more: true }
      }),
    categories: (audience) =>
      Effect.sync(() => {
        recorded.push({ kind: "categories", request: audience })
        return { categories: [{ name: "Hi", query: "hi", preview: "https://example.test/p.jpg" }] }
      })
  })
)

const viewers = Layer.succeed(
  GifViewers,
  GifViewers.of({ read: (userId) => Effect.succeed(VIEWERS[userId] ?? { locale: "ru", dateOfBirth: null }) })
)

const crypto = Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto))

const gifs = Gifs.layer.pipe(
  Layer.provide(
    Layer.mergeAll(provider, viewers, GifCache.layerMemory(), GifsConfig.layer({ customerKey: KEY }), crypto)
  )
)

const start = TestClock.setTime(Date.UTC(2026, 0, 1))

describe("Gifs", () => {
  it.effect("tells the provider an HMAC customer id, the locale and the filter by age; never the user id", () =>
    Effect.gen(function* () {
      yield* start
      recorded.length = 0
      const service = yield* Gifs
      yield* service.trending(ADULT, { page: 1, limit: 24 })
      yield* service.trending(MINOR, { page: 1, limit: 24 })
      // page 2: page 1 for "ru" and "high" is the minor's, cached (the key names no user)
      yield* service.trending(BOT, { page: 2, limit: 24 })
      const ids = yield* CustomerIds.make(KEY).pipe(Effect.provide(crypto))
      expect(recorded.map((r) => r.request)).toEqual([
        { customerId: yield* ids.of(ADULT), locale: "en_US", contentFilter: "medium", page: 1, limit: 24 },
        { customerId: yield* ids.of(MINOR), locale: "ru", contentFilter: "high", page: 1, limit: 24 },
        { customerId: yield* ids.of(BOT), locale: "ru", contentFilter: "high", page: 2, limit: 24 }
      ])
      for (const { request } of recorded) {
        expect(request.customerId).toMatch(/^[A-Za-z0-9_-]{32}$/)
        expect(request.customerId).not.toContain(ADULT)
      }
      expect(new Set(recorded.map((r) => r.request.customerId)).size).toBe(3)
    }).pipe(Effect.provide(gifs))
  )

  it.effect("a user turning 18 gets the adult filter from that day", () =>
    Effect.gen(function* () {
      recorded.length = 0
      const turning = Snowflake.Snowflake.make("175928847299117066")
      VIEWERS[turning] = { locale: "ru", dateOfBirth: "2008-01-02" }
      yield* start
      const service = yield* Gifs
      yield* service.trending(turning, { page: 1, limit: 10 })
      yield* TestClock.adjust(Duration.days(1))
      yield* service.trending(turning, { page: 1, limit: 10 })
      expect(recorded.map((r) => r.request.contentFilter)).toEqual(["high", "medium"])
    }).pipe(Effect.provide(gifs))
  )

  it.effect("caches by what was asked: another user with the same locale and filter hits the cache", () =>
    Effect.gen(function* () {
      yield* start
      recorded.length = 0
      const service = yield* Gifs
      const other = Snowflake.Snowflake.make("175928847299117067")
      VIEWERS[other] = { locale: "ru", dateOfBirth: "2011-01-01" }
      yield* service.search(MINOR, "  Funny   CAT ", { page: 2, limit: 10 })
      const again = yield* service.search(other, "funny cat", { page: 2, limit: 10 })
      expect(again).toEqual({ gifs: [], page: 2, limit: 10, has_more: true })
      expect(recorded).toHaveLength(1)
      expect(recorded[0]?.request).toMatchObject({ q: "funny cat" })
      // Another page, another locale or another filter is another entry.
      yield* service.search(MINOR, "funny cat", { page: 3, limit: 10 })
      yield* service.search(ADULT, "funny cat", { page: 2, limit: 10 })
      expect(recorded).toHaveLength(3)
      // Expired after the time-to-live (2 minutes by default).
      yield* TestClock.adjust(Duration.minutes(2))
      yield* service.search(MINOR, "funny cat", { page: 2, limit: 10 })
      expect(recorded).toHaveLength(4)
    }).pipe(Effect.provide(gifs))
  )

  it.effect("categories are cached longer", () =>
    Effect.gen(function* () {
      yield* start
      recorded.length = 0
      const service = yield* Gifs
      yield* service.categories(ADULT)
      yield* TestClock.adjust(Duration.minutes(29))
      yield* service.categories(ADULT)
      expect(recorded).toHaveLength(1)
      yield* TestClock.adjust(Duration.minutes(1))
      yield* service.categories(ADULT)
      expect(recorded).toHaveLength(2)
    }).pipe(Effect.provide(gifs))
  )

  it("spells locales as providers do and normalises search text", () => {
    expect(providerLocale("en-US")).toBe("en_US")
    expect(providerLocale("ru")).toBe("ru")
    expect(providerLocale("pt_br")).toBe("pt_BR")
    expect(providerLocale("x")).toBeNull()
    expect(providerLocale("en-US; drop table")).toBeNull()
    expect(normaliseQuery("  Hello\t  World ")).toBe("hello world")
  })

  it.effect("customer ids differ under another key", () =>
    Effect.gen(function* () {
      const a = yield* CustomerIds.make(KEY)
      const b = yield* CustomerIds.make(Redacted.make("another-test-customer-key-of-32-chars!!"))
      expect(yield* a.of(ADULT)).toBe(yield* a.of(ADULT))
      expect(yield* a.of(ADULT)).not.toBe(yield* b.of(ADULT))
    }).pipe(Effect.provide(crypto))
  )
})
