/**
 * The GIF proxy through HTTP, on the repositories the caller gives (memory by default; PostgreSQL
 * in adapters/postgres/test/GifRoutes.test.ts), against a local fake of KLIPY (FakeKlipy) reached
 * over real HTTP by the KLIPY adapter: the mapping onto the GIF object, paging, ads left out, the
 * customer id the fake receives, the cache, every provider failure as 502, bad input as 400, and
 * the per-user rate limit. A second host runs the dev fixtures.
 */
import { describe, expect, layer } from "@effect/vitest"
import { CustomerIds } from "@veche/gifs"
import { KlipyGifProvider } from "@veche/klipy"
import { TestHost } from "@veche/test-host"
import { Duration, Effect, Fiber, Layer, Redacted } from "effect"
import { Mac, SecureRandom } from "effect/crypto"
import { FetchHttpClient } from "effect/http"
import { json, type Registered, register, send } from "./Accounts.ts"
import * as FakeKlipy from "./FakeKlipy.ts"

const API = "/api/v10"
const TIMEOUT = Duration.seconds(3)
const UNAVAILABLE = { code: 0, message: "GIF provider unavailable" }

interface Gif {
  readonly id: string
  readonly title: string
  readonly url: string
  readonly src: string
  readonly gif_src: string
  readonly preview: string
  readonly width: number
  readonly height: number
}

interface GifPage {
  readonly gifs: ReadonlyArray<Gif>
  readonly page: number
  readonly limit: number
  readonly has_more: boolean
}

const answer = (response: Response) =>
  Effect.map(json(response), (body) => ({ status: response.status, body: body as Record<string, unknown> }))

const get = (path: string, token?: string) => Effect.flatMap(send("GET", `${API}${path}`, undefined, token), answer)

const customerIdOf = (userId: string) =>
  Effect.flatMap(CustomerIds.make(TestHost.GIFS_CUSTOMER_KEY), (ids) => ids.of(userId)).pipe(
    Effect.provide(Mac.layerWebCrypto.pipe(Layer.provide(SecureRandom.layerWebCrypto)))
  )

/** The GIF object the proxy must make of the fake's item. */
const expected = (slug: string, title: string): Gif => ({
  id: slug,
  title,
  url: `https://klipy.com/gifs/${slug}`,
  src: `https://static.klipy.test/${slug}/md.mp4`,
  gif_src: `https://static.klipy.test/${slug}/md.gif`,
  preview: `https://static.klipy.test/${slug}/sm.jpg`,
  width: 320,
  height: 180
})

let phone = 79674000000
const user = (name: string, dateOfBirth = "1995-01-01"): Effect.Effect<Registered, never, TestHost.TestHost> =>
  register(`+${++phone}`, `${name}_${phone % 100000}`, { date_of_birth: dateOfBirth })

export const gifScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  /** The test host with KLIPY's adapter pointed at the fake, and the fake beside it. */
  const withFake = Layer.unwrap(
    Effect.map(Effect.service(FakeKlipy.FakeKlipy), (fake) =>
      TestHost.layer({
        repositories: repositories?.(),
        rateLimits: { enabled: false },
        gifProvider: KlipyGifProvider.layer({
          apiKey: Redacted.make(FakeKlipy.APP_KEY),
          baseUrl: fake.baseUrl,
          timeout: TIMEOUT
        }).pipe(Layer.provide(FetchHttpClient.layer))
      })
    )
  ).pipe(Layer.provideMerge(FakeKlipy.layer))

  describe("GIFs against KLIPY (a local fake)", () => {
    layer(withFake, { timeout: 60_000 })((it) => {
      const fake = Effect.service(FakeKlipy.FakeKlipy)

      it.effect("trending: KLIPY's items as GIF objects, the ad slot left out, what KLIPY was told", () =>
        Effect.gen(function* () {
          const alice = yield* user("gif_alice")
          const klipy = yield* fake
          const before = klipy.received().length
          const { status, body } = yield* get("/gifs/trending?limit=10", alice.access_token)
          expect(status).toBe(200)
          const page = body as unknown as GifPage
          expect(page.page).toBe(1)
          expect(page.limit).toBe(10)
          expect(page.has_more).toBe(true)
          // KLIPY's page held ten GIFs and an ad in the third place: ten GIFs, no ad.
          expect(page.gifs).toHaveLength(10)
          expect(page.gifs[0]).toEqual(expected("trending-0", "Trending 0"))
          expect(page.gifs.map((gif) => gif.id)).toEqual(Array.from({ length: 10 }, (_, n) => `trending-${n}`))
          for (const gif of page.gifs) expect(Object.keys(gif).sort()).toEqual(Object.keys(expected("x", "x")).sort())

          const sent = klipy.received().slice(before)
          expect(sent).toHaveLength(1)
          const request = sent[0] as FakeKlipy.Received
          expect(request.path).toBe(`/api/v1/${FakeKlipy.APP_KEY}/gifs/trending`)
          // The customer id is the HMAC of the user id under the server's key: never the id itself.
          const customerId = yield* customerIdOf(alice.user_id)
          expect(request.query.customer_id).toBe(customerId)
          expect(request.query.customer_id).not.toContain(alice.user_id)
          expect(request.query).toMatchObject({ page: "1", per_page: "10", locale: "ru", content_filter: "medium" })
          // No ad parameters asked for, and no user id anywhere in what KLIPY received.
          expect(Object.keys(request.query).filter((k) => k.startsWith("ad"))).toEqual([])
          expect(JSON.stringify(request)).not.toContain(alice.user_id)
        })
      )

      it.effect("paging: a page of our size cut from KLIPY's, next pages and the end of the list", () =>
        Effect.gen(function* () {
          const bob = yield* user("gif_bob")
          const klipy = yield* fake
          const ids = (body: Record<string, unknown>) => (body as unknown as GifPage).gifs.map((gif) => gif.id)

          const second = yield* get("/gifs/trending?page=2&limit=20", bob.access_token)
          expect(second.status).toBe(200)
          expect(ids(second.body)).toEqual(Array.from({ length: 20 }, (_, n) => `trending-${20 + n}`))
          expect(second.body.has_more).toBe(false)
          expect(klipy.received().at(-1)?.query).toMatchObject({ page: "2", per_page: "20" })

          // Three a page: KLIPY pages start at 8, so page 2 of 3 is the middle of KLIPY's page of 9.
          const small = yield* get("/gifs/trending?page=2&limit=3", bob.access_token)
          expect(ids(small.body)).toEqual(["trending-3", "trending-4", "trending-5"])
          expect(small.body.has_more).toBe(true)
          expect(klipy.received().at(-1)?.query).toMatchObject({ page: "1", per_page: "9" })
          const fourth = yield* get("/gifs/trending?page=4&limit=3", bob.access_token)
          expect(ids(fourth.body)).toEqual(["trending-9", "trending-10", "trending-11"])
          expect(klipy.received().at(-1)?.query).toMatchObject({ page: "2", per_page: "9" })

          // The default limit is 24.
          const first = yield* get("/gifs/search?q=dogs", bob.access_token)
          expect(first.body.limit).toBe(24)
          expect(klipy.received().at(-1)?.query).toMatchObject({ per_page: "24", page: "1", q: "dogs" })
          expect(ids(first.body)).toHaveLength(FakeKlipy.SEARCH_TOTAL)
          expect(first.body.has_more).toBe(false)
        })
      )

      it.effect("search: the text as asked (trimmed, lower case), mapped like trending; categories as tiles", () =>
        Effect.gen(function* () {
          const carol = yield* user("gif_carol")
          const klipy = yield* fake
          const found = yield* get("/gifs/search?q=%20Funny%20Cat%20&limit=5", carol.access_token)
          expect(found.status).toBe(200)
          expect((found.body as unknown as GifPage).gifs[0]).toEqual(expected("funny-cat-0", "funny cat 0"))
          expect(found.body.has_more).toBe(true)
          const request = klipy.received().at(-1) as FakeKlipy.Received
          expect(request.path).toBe(`/api/v1/${FakeKlipy.APP_KEY}/gifs/search`)
          // Five a page: KLIPY's smallest is 8, so it is asked for 10 (two of our pages) and page 1 of them.
          expect(request.query).toMatchObject({ q: "funny cat", per_page: "10", page: "1" })
          expect(request.query.customer_id).toBe(yield* customerIdOf(carol.user_id))

          const tiles = yield* get("/gifs/categories", carol.access_token)
          expect(tiles).toEqual({
            status: 200,
            body: {
              categories: FakeKlipy.CATEGORIES.map((c) => ({
                name: c.category,
                query: c.query,
                preview: c.preview_url
              }))
            }
          })
          expect(klipy.received().at(-1)?.path).toBe(`/api/v1/${FakeKlipy.APP_KEY}/gifs/categories`)
        })
      )

      it.effect("a user under 18 gets KLIPY's strict content filter", () =>
        Effect.gen(function* () {
          const teen = yield* user("gif_teen", "2011-06-01")
          const klipy = yield* fake
          expect((yield* get("/gifs/trending?page=3", teen.access_token)).status).toBe(200)
          expect(klipy.received().at(-1)?.query.content_filter).toBe("high")
        })
      )

      it.effect("a cached answer does not ask KLIPY again, whoever asks; another page does", () =>
        Effect.gen(function* () {
          const dave = yield* user("gif_dave")
          const erin = yield* user("gif_erin")
          const klipy = yield* fake
          const before = klipy.received().length
          const first = yield* get("/gifs/search?q=cached&page=2&limit=7", dave.access_token)
          const second = yield* get("/gifs/search?q=CACHED&page=2&limit=7", erin.access_token)
          expect(first.status).toBe(200)
          expect(second).toEqual(first)
          expect(klipy.received().length - before).toBe(1)
          yield* get("/gifs/search?q=cached&page=3&limit=7", dave.access_token)
          expect(klipy.received().length - before).toBe(2)
          // After the time-to-live (2 minutes) KLIPY is asked again.
          yield* Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("2 minutes"))
          yield* get("/gifs/search?q=cached&page=2&limit=7", dave.access_token)
          expect(klipy.received().length - before).toBe(3)
        })
      )

      it.effect("KLIPY failing, talking nonsense or refusing our key: 502 in the API's error shape", () =>
        Effect.gen(function* () {
          const frank = yield* user("gif_frank")
          const klipy = yield* fake
          // Categories are asked for a user under 18: the adults' tiles are cached from an earlier test.
          const young = yield* user("gif_young", "2011-03-01")
          const cases: ReadonlyArray<readonly [FakeKlipy.FailMode, string, Registered]> = [
            ["500", "/gifs/trending?page=11", frank],
            ["garbage", "/gifs/trending?page=12", frank],
            ["html", "/gifs/search?q=html", frank],
            ["shape", "/gifs/search?q=shape", frank],
            ["401", "/gifs/trending?page=14", frank],
            ["500", "/gifs/categories", young]
          ]
          for (const [mode, path, who] of cases) {
            klipy.failNext(mode)
            const before = klipy.received().length
            expect({ mode, ...(yield* get(path, who.access_token)) }).toEqual({
              mode,
              status: 502,
              body: UNAVAILABLE
            })
            expect(klipy.received().length).toBe(before + 1)
          }
          klipy.failNext(undefined)
          // A failure is not cached: the same page answers once KLIPY is back.
          expect((yield* get("/gifs/trending?page=11", frank.access_token)).status).toBe(200)
        })
      )

      it.effect("KLIPY not answering in time: 502 after the timeout", () =>
        Effect.gen(function* () {
          const gina = yield* user("gif_gina")
          const klipy = yield* fake
          const host = yield* TestHost.TestHost
          klipy.failNext("hang")
          const count = klipy.received().length
          const pending = yield* Effect.forkChild(get("/gifs/trending?page=13", gina.access_token))
          yield* klipy.waitFor(count + 1)
          yield* host.adjustClock(TIMEOUT)
          expect(yield* Fiber.join(pending)).toEqual({ status: 502, body: UNAVAILABLE })
          klipy.failNext(undefined)
        })
      )

      it.effect("bad input is 400 in the API's error shape, and KLIPY is never asked", () =>
        Effect.gen(function* () {
          const hank = yield* user("gif_hank")
          const klipy = yield* fake
          const before = klipy.received().length
          const bad = [
            "/gifs/search",
            "/gifs/search?q=",
            "/gifs/search?q=%20%20%20",
            `/gifs/search?q=${"a".repeat(101)}`,
            `/gifs/search?q=${"a".repeat(20_000)}`,
            "/gifs/search?q=cat%00dog",
            "/gifs/search?q=cat&limit=0",
            "/gifs/trending?page=0",
            "/gifs/trending?page=-1",
            "/gifs/trending?page=1.5",
            "/gifs/trending?page=99999999999999999999",
            "/gifs/trending?limit=51",
            "/gifs/trending?limit=abc",
            "/gifs/trending?limit=%00",
            "/gifs/trending?page=%F0%9F%98%80"
          ]
          for (const path of bad) {
            const { status, body } = yield* get(path, hank.access_token)
            expect({ path, status, code: body.code }).toEqual({ path, status: 400, code: 50035 })
            expect(typeof body.message).toBe("string")
          }
          expect(klipy.received().length).toBe(before)
          // Credentials are required.
          expect(yield* get("/gifs/trending")).toMatchObject({ status: 401, body: { code: 40001 } })
        })
      )
    })
  })

  describe("GIFs from the dev fixtures, with the rate limits on", () => {
    layer(TestHost.layer({ repositories: repositories?.() }), { timeout: 60_000 })((it) => {
      it.effect("the dev provider answers without the internet", () =>
        Effect.gen(function* () {
          const ivan = yield* user("gif_ivan")
          const trending = yield* get("/gifs/trending?limit=3", ivan.access_token)
          expect(trending.status).toBe(200)
          const page = trending.body as unknown as GifPage
          expect(page.gifs.map((gif) => gif.id)).toEqual(["dev-hello", "dev-thanks", "dev-yes"])
          expect(page.gifs[0]?.src.startsWith("data:image/svg+xml,")).toBe(true)
          expect(page.has_more).toBe(true)
          const found = yield* get("/gifs/search?q=happy", ivan.access_token)
          expect((found.body as unknown as GifPage).gifs.map((gif) => gif.id)).toEqual(["dev-dance", "dev-party"])
          const tiles = yield* get("/gifs/categories", ivan.access_token)
          expect((tiles.body.categories as ReadonlyArray<unknown>).length).toBeGreaterThan(0)
        })
      )

      it.effect(
        "each user has their own GIF bucket: the 21st request in 10 seconds is 429 with the platform's headers",
        () =>
          Effect.gen(function* () {
            const judy = yield* user("gif_judy")
            const kim = yield* user("gif_kim")
            // A token's first request on a node counts against the client's address (KnownTokens):
            // one authenticated call first, so the GIF bucket below is Judy's own from its first use.
            for (const who of [judy, kim]) {
              expect((yield* send("GET", `${API}/users/@me`, undefined, who.access_token)).status).toBe(200)
            }
            const paths = ["/gifs/trending", "/gifs/search?q=cat", "/gifs/categories"]
            for (let n = 0; n < 20; n++) {
              const response = yield* send("GET", `${API}${paths[n % 3]}`, undefined, judy.access_token)
              expect(response.status).toBe(200)
              expect(response.headers.get("x-ratelimit-limit")).toBe("20")
              expect(response.headers.get("x-ratelimit-remaining")).toBe(String(19 - n))
            }
            const limited = yield* send("GET", `${API}/gifs/trending?page=2`, undefined, judy.access_token)
            expect(limited.status).toBe(429)
            const headers = Object.fromEntries(limited.headers)
            expect(headers).toMatchObject({
              "x-ratelimit-limit": "20",
              "x-ratelimit-remaining": "0",
              "x-ratelimit-scope": "user"
            })
            expect(headers["x-ratelimit-bucket"]).toMatch(/\S/)
            expect(Number(headers["retry-after"])).toBeGreaterThan(0)
            expect(Number(headers["x-ratelimit-reset-after"])).toBeGreaterThan(0)
            const body = (yield* json(limited)) as Record<string, unknown>
            expect(body).toMatchObject({ global: false })
            expect(typeof body.message).toBe("string")
            expect(body.retry_after).toBeGreaterThan(0)
            // Another user is not limited by Judy's requests; other routes are not either.
            expect((yield* send("GET", `${API}/gifs/trending`, undefined, kim.access_token)).status).toBe(200)
            expect((yield* send("GET", `${API}/users/@me`, undefined, judy.access_token)).status).toBe(200)
            // The window passes: Judy may ask again.
            yield* Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("10 seconds"))
            expect((yield* send("GET", `${API}/gifs/trending`, undefined, judy.access_token)).status).toBe(200)
          })
      )
    })
  })
}
