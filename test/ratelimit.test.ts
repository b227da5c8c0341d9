/** Rate limits through the whole app: headers, 429s, windows, shared buckets, partitions, the global limit. */
import { RateLimitError, REST } from "@discordjs/rest"
import { describe, expect, it, layer } from "@effect/vitest"
import { FormBodyErrors, RateLimit } from "@veche/api"
import { Snowflake } from "@veche/platform"
import { RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Authenticator, FormBodyErrorsMiddleware, HttpEdge, KnownTokens, RateLimitMiddleware } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { register, send } from "./support/Accounts.ts"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const rateLimitHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name.startsWith("x-ratelimit") || name === "retry-after"))

/** A request from the client at `from` (the test host trusts X-Forwarded-For from its loopback proxy). */
const from = (path: string, address: string, authorization?: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      headers: { "x-forwarded-for": address, ...(authorization === undefined ? {} : { authorization }) }
    })
  )

describe("Route buckets on the API", () => {
  layer(
    TestHost.layer({
      rateLimits: {
        buckets: { version: { limit: 2, windowMs: 10_000 }, gateway: { limit: 5, windowMs: 60_000 } }
      }
    })
  )((it) => {
    it.effect("every answer carries the bucket headers", () =>
      Effect.gen(function* () {
        const response = yield* from("/api/v10/gateway", "192.0.2.1")
        expect(response.status).toBe(200)
        expect(rateLimitHeaders(response)).toEqual({
          "x-ratelimit-limit": "5",
          "x-ratelimit-remaining": "4",
          "x-ratelimit-reset": expect.stringMatching(/^\d{10}\.\d{3}$/),
          "x-ratelimit-reset-after": "12.000",
          "x-ratelimit-bucket": expect.stringMatching(/^[0-9a-f]{16}$/)
        })
        // Reset is the host's clock plus Reset-After, in Unix seconds.
        expect(Number(response.headers.get("x-ratelimit-reset"))).toBeCloseTo(TestHost.START_TIME / 1000 + 12, 2)
      })
    )

    it.effect("a used-up bucket answers 429 with the body and headers, then resets after its window", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const call = () => from("/api/v10/version", "192.0.2.2")
        expect((yield* call()).status).toBe(200)
        expect((yield* call()).status).toBe(200)
        const refused = yield* call()
        expect(refused.status).toBe(429)
        expect(yield* json(refused)).toEqual({ message: "You are being rate limited.", retry_after: 10, global: false })
        expect(rateLimitHeaders(refused)).toMatchObject({
          "retry-after": "10",
          "x-ratelimit-limit": "2",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": "10.000",
          "x-ratelimit-scope": "user"
        })
        expect(refused.headers.has("x-ratelimit-global")).toBe(false)
        yield* host.adjustClock("10 seconds")
        const again = yield* call()
        expect(again.status).toBe(200)
        expect(again.headers.get("x-ratelimit-remaining")).toBe("1")
      })
    )

    it.effect("routes sharing a bucket report the same X-RateLimit-Bucket and share one counter", () =>
      Effect.gen(function* () {
        const gateway = yield* from("/api/v10/gateway", "192.0.2.3", "Bot shared-test")
        const gatewayBot = yield* from("/api/v10/gateway/bot", "192.0.2.3", "Bot shared-test")
        const version = yield* from("/api/v10/version", "192.0.2.3", "Bot shared-test")
        expect(gatewayBot.status).toBe(401) // counted before authentication
        expect(gatewayBot.headers.get("x-ratelimit-bucket")).toBe(gateway.headers.get("x-ratelimit-bucket"))
        expect(gatewayBot.headers.get("x-ratelimit-remaining")).toBe("3")
        expect(version.headers.get("x-ratelimit-bucket")).not.toBe(gateway.headers.get("x-ratelimit-bucket"))
      })
    )

    it.effect("each address has its own counters", () =>
      Effect.gen(function* () {
        const a = yield* from("/api/v10/gateway", "192.0.2.4")
        const b = yield* from("/api/v10/gateway", "192.0.2.5")
        for (const response of [a, b]) expect(response.headers.get("x-ratelimit-remaining")).toBe("4")
      })
    )

    it.effect(
      "@discordjs/rest with rejectOnRateLimit reports the route, limit and retry time the headers carried",
      () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const rest = new REST({
            version: "10",
            api: `${TestHost.BASE_URL}/api`,
            rejectOnRateLimit: () => true,
            retries: 0,
            // undici's RequestInit type differs from the DOM one in details the test host ignores
            makeRequest: (url, init) => host.fetchPromise(url, init as unknown as RequestInit)
          }).setToken("discordjs-test")
          const error = yield* Effect.promise(async () => {
            for (let i = 0; i < 4; i++) {
              try {
                await rest.get("/version")
              } catch (caught) {
                return caught
              }
            }
            return undefined
          })
          expect(error).toBeInstanceOf(RateLimitError)
          const limited = error as RateLimitError
          expect(limited.route).toBe("/version")
          expect(limited.limit).toBe(2)
          expect(limited.global).toBe(false)
          expect(limited.timeToReset).toBeGreaterThan(9_000)
          // the library adds its own small safety offset to what Reset-After said
          expect(limited.timeToReset).toBeLessThanOrEqual(10_500)
        })
    )
  })
})

describe("The global limit", () => {
  layer(TestHost.layer({ rateLimits: { global: { limit: 3, windowMs: 1_000 } } }))((it) => {
    it.effect("answers 429 with global true, X-RateLimit-Global and scope global", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const headers = { authorization: "Bot global-test" }
        for (const path of ["/api/v10/version", "/api/v10/gateway", "/api/v9/version"]) {
          expect((yield* host.fetch(path, { headers })).status).toBe(200)
        }
        const refused = yield* host.fetch("/api/v1/gateway", { headers })
        expect(refused.status).toBe(429)
        expect(yield* json(refused)).toEqual({
          message: "You are being rate limited.",
          retry_after: expect.closeTo(1, 2),
          global: true
        })
        expect(refused.headers.get("x-ratelimit-global")).toBe("true")
        expect(refused.headers.get("x-ratelimit-scope")).toBe("global")
        expect(refused.headers.get("retry-after")).toBe("1")
        yield* host.adjustClock("1 second")
        expect((yield* host.fetch("/api/v1/gateway", { headers })).status).toBe(200)
      })
    )
  })
})

const VALID_BOT = "Bot MTMy.rate-limit-bot"
const OTHER_BOT = "Bot MTMz.rate-limit-bot"
const tokens = Authenticator.Authenticator.layerStatic([
  {
    scheme: "Bot",
    token: "MTMy.rate-limit-bot",
    principal: { kind: "bot", userId: Snowflake.Snowflake.make("1312000000000000071") }
  },
  {
    scheme: "Bot",
    token: "MTMz.rate-limit-bot",
    principal: { kind: "bot", userId: Snowflake.Snowflake.make("1312000000000000072") }
  }
])

describe("Who a request counts against: the address until a token has authenticated", () => {
  layer(
    TestHost.layer({
      authenticator: tokens,
      rateLimits: { buckets: { version: { limit: 3, windowMs: 60_000 }, gateway: { limit: 5, windowMs: 60_000 } } }
    })
  )((it) => {
    it.effect("junk tokens from one address share that address's bucket on a route that takes credentials", () =>
      Effect.gen(function* () {
        const statuses: Array<number> = []
        for (let i = 0; i < 7; i++)
          statuses.push((yield* from("/api/v10/gateway/bot", "198.51.100.1", `Bot junk-${i}`)).status)
        // five lookups of a junk token, then refused before any lookup
        expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429])
        // another address is counted apart
        expect((yield* from("/api/v10/gateway/bot", "198.51.100.2", "Bot junk-x")).status).toBe(401)
      })
    )

    it.effect("a route without credentials ignores the header: every token from one address shares its bucket", () =>
      Effect.gen(function* () {
        const statuses: Array<number> = []
        for (let i = 0; i < 4; i++)
          statuses.push((yield* from("/api/v10/version", "198.51.100.3", `Bot any-${i}`)).status)
        expect(statuses).toEqual([200, 200, 200, 429])
        // a valid token changes nothing there either
        expect((yield* from("/api/v10/version", "198.51.100.3", VALID_BOT)).status).toBe(429)
      })
    )

    it.effect("a valid token gets its own bucket once it has authenticated", () =>
      Effect.gen(function* () {
        const address = "198.51.100.4"
        const first = yield* from("/api/v10/gateway/bot", address, VALID_BOT)
        expect(first.status).toBe(200)
        // its first request counted against the address: 4 left there
        expect(first.headers.get("x-ratelimit-remaining")).toBe("4")
        for (let i = 0; i < 4; i++)
          expect((yield* from("/api/v10/gateway/bot", address, `Bot junk-${i}`)).status).toBe(401)
        expect((yield* from("/api/v10/gateway/bot", address, "Bot junk-5")).status).toBe(429)
        // the address is spent; the authenticated token counts on its own bucket
        const own = yield* from("/api/v10/gateway/bot", address, VALID_BOT)
        expect(own.status).toBe(200)
        expect(own.headers.get("x-ratelimit-remaining")).toBe("4")
        expect(own.headers.get("x-ratelimit-bucket")).toBe(first.headers.get("x-ratelimit-bucket"))
      })
    )
  })
})

describe("A known token on a route with a guild id: its own count per guild", () => {
  layer(
    TestHost.layer({ authenticator: tokens, rateLimits: { buckets: { default: { limit: 3, windowMs: 60_000 } } } })
  )((it) => {
    it.effect("apart from another token's and from the address's, and apart for each guild", () =>
      Effect.gen(function* () {
        const address = "198.51.100.90"
        const guild = (id: string, authorization: string) =>
          Effect.map(from(`/api/v10/guilds/${id}`, address, authorization), (response) =>
            response.status === 429 ? "429" : response.headers.get("x-ratelimit-remaining")
          )
        const first = "1000000000000000901"
        const second = "1000000000000000902"
        // a token's first request counts against the address, the next ones against the token
        expect(yield* guild(first, VALID_BOT)).toBe("2")
        expect(yield* guild(first, VALID_BOT)).toBe("2")
        expect(yield* guild(first, VALID_BOT)).toBe("1")
        expect(yield* guild(first, OTHER_BOT)).toBe("1")
        expect(yield* guild(first, OTHER_BOT)).toBe("2")
        expect(yield* guild(second, VALID_BOT)).toBe("2")
        expect(yield* guild(first, VALID_BOT)).toBe("0")
        expect(yield* guild(first, VALID_BOT)).toBe("429")
        // the other token and the address still have theirs
        expect(yield* guild(first, OTHER_BOT)).toBe("1")
        expect(yield* guild(first, "Bot junk")).toBe("0")
        expect(yield* guild(first, "Bot junk")).toBe("429")
      })
    )
  })
})

describe("A token that stops authenticating loses its bucket", () => {
  layer(TestHost.layer({ rateLimits: { buckets: { default: { limit: 4, windowMs: 60_000 } } } }))((it) => {
    it.effect("after logout its requests count against the client's address again", () =>
      Effect.gen(function* () {
        const account = yield* register("+79881110001", "limits_revoked")
        const bearer = `Bearer ${account.access_token}`
        const address = "198.51.100.80"
        const me = () => from("/api/v10/users/@me", address, bearer)
        // the first request counts against the address, the next ones against the token
        expect((yield* me()).headers.get("x-ratelimit-remaining")).toBe("3")
        expect((yield* me()).headers.get("x-ratelimit-remaining")).toBe("3")
        expect((yield* send("POST", "/api/v10/auth/logout", undefined, account.access_token)).status).toBe(204)
        // its first failure is still counted on the token's bucket and makes it unknown; from then on, the address's
        const failed = yield* me()
        expect(failed.status).toBe(401)
        const again = yield* me()
        expect(again.status).toBe(401)
        expect(again.headers.get("x-ratelimit-remaining")).toBe("2")
      })
    )
  })
})

describe("The global limit counts junk tokens by address too", () => {
  layer(TestHost.layer({ authenticator: tokens, rateLimits: { global: { limit: 3, windowMs: 1_000 } } }))((it) => {
    it.effect("junk tokens from one address hit the address's global limit; a valid token has its own", () =>
      Effect.gen(function* () {
        const address = "198.51.100.5"
        expect((yield* from("/api/v10/gateway/bot", address, VALID_BOT)).status).toBe(200)
        for (let i = 0; i < 2; i++)
          expect((yield* from("/api/v10/gateway/bot", address, `Bot junk-${i}`)).status).toBe(401)
        const refused = yield* from("/api/v10/gateway/bot", address, "Bot junk-3")
        expect(refused.status).toBe(429)
        expect(refused.headers.get("x-ratelimit-global")).toBe("true")
        expect((yield* from("/api/v10/gateway/bot", address, VALID_BOT)).status).toBe(200)
      })
    )
  })
})

describe("IPv6 clients count by /64, and by /48 with eight times the allowance", () => {
  layer(
    TestHost.layer({
      rateLimits: { global: { limit: 3, windowMs: 1_000 }, buckets: { version: { limit: 2, windowMs: 60_000 } } }
    })
  )((it) => {
    it.effect("two addresses in one /64 share a bucket", () =>
      Effect.gen(function* () {
        expect((yield* from("/api/v10/version", "2001:db8:1:1::1")).status).toBe(200)
        expect((yield* from("/api/v10/version", "2001:db8:1:1:ffff:ffff:ffff:fffe")).status).toBe(200)
        expect((yield* from("/api/v10/version", "2001:db8:1:1:abcd::9")).status).toBe(429)
        // the next /64 is another client
        expect((yield* from("/api/v10/version", "2001:db8:1:2::1")).status).toBe(200)
      })
    )

    it.effect("an IPv4-mapped IPv6 address counts as its IPv4 address", () =>
      Effect.gen(function* () {
        expect((yield* from("/api/v10/version", "198.51.100.9")).status).toBe(200)
        expect((yield* from("/api/v10/version", "::ffff:198.51.100.9")).status).toBe(200)
        expect((yield* from("/api/v10/version", "::ffff:c633:6409")).status).toBe(429)
      })
    )

    // On a route counted by the client's address alone, and on one with a guild id (counted by
    // caller and guild): both count the /48.
    it.effect.each([
      { route: "/api/v10/gateway", site: "2001:db8:2", other: "2001:db8:3" },
      { route: "/api/v10/guilds/1000000000000000903", site: "2001:db8:4", other: "2001:db8:5" }
    ])("many /64s of one /48 hit the /48's global limit on $route", ({ route, site, other }) =>
      Effect.gen(function* () {
        const statuses: Array<number> = []
        // 3 requests per /64 (its own global limit) from nine /64s: the /48 allows 8 × 3 a second
        for (let net = 1; net <= 9; net++) {
          for (let i = 0; i < 3; i++) statuses.push((yield* from(route, `${site}:${net}::${i + 1}`)).status)
        }
        // the guild route answers 401 without a token: counted all the same
        expect(statuses.slice(0, 24).every((status) => status !== 429)).toBe(true)
        expect(statuses.slice(24)).toEqual([429, 429, 429])
        const refused = yield* from(route, `${site}:a::1`)
        expect(refused.status).toBe(429)
        expect(refused.headers.get("x-ratelimit-global")).toBe("true")
        // another /48 is untouched
        expect((yield* from(route, `${other}:1::1`)).status).not.toBe(429)
      })
    )
  })
})

// Partitioning by the top-level resource id, on routes with a guild id in the path. The foundation's
// own routes have none yet, so a probe API is served through the same RateLimit middleware.
class GuildProbe extends HttpApiGroup.make("guilds").add(
  HttpApiEndpoint.get("members", "/guilds/:guild_id/members", {
    params: { guild_id: Schema.String },
    success: Schema.Struct({ guild_id: Schema.String })
  })
) {}
class GuildProbeApi extends HttpApi.make("probe")
  .add(GuildProbe)
  .middleware(FormBodyErrors.FormBodyErrors)
  .middleware(RateLimit.RateLimit) {}

/** A probe API's routes behind its FormBodyErrors and RateLimit middlewares, counted by `limiter`. */
const limitedProbe = <A, E, R>(routes: Layer.Layer<A, E, R>, limiter: Layer.Layer<RouteLimiter.RouteLimiter>) =>
  routes.pipe(
    Layer.provide(
      Layer.mergeAll(FormBodyErrorsMiddleware.layer, RateLimitMiddleware.layer).pipe(
        Layer.provide(KnownTokens.KnownTokens.layer)
      )
    ),
    Layer.provide(limiter),
    Layer.provide(HttpServer.layerServices)
  )

const membersBuckets = RouteBuckets.RouteBuckets.layer({
  // the global limit out of the way: one caller asks for hundreds of guilds below
  global: { limit: 10_000, windowMs: 1_000 },
  buckets: { members: { limit: 2, windowMs: 60_000 } },
  routes: { "guilds.members": "members" }
})

// Both ways a route counts: through a store (effect's RateLimiter, run per request) and in this
// process (the middleware keeps each caller's prepared count, by caller and guild id).
describe.each([
  {
    limiter: "a store",
    layer: RouteLimiter.RouteLimiter.layer.pipe(
      Layer.provide(membersBuckets),
      Layer.provide(RateLimitStore.layerMemory)
    )
  },
  { limiter: "this process", layer: RouteLimiter.RouteLimiter.layerInProcess.pipe(Layer.provide(membersBuckets)) }
])("Partitions by guild id, counted by $limiter", ({ layer: limiter }) => {
  const routes = limitedProbe(
    HttpApiBuilder.layer(GuildProbeApi).pipe(
      Layer.provide(
        HttpApiBuilder.group(GuildProbeApi, "guilds", (h) =>
          h.handle("members", ({ params }) => Effect.succeed({ guild_id: params.guild_id }))
        )
      )
    ),
    limiter
  )
  const { handler, dispose } = HttpRouter.toWebHandler(routes, {
    disableLogger: true,
    middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: false })
  })
  const get = (guildId: string) =>
    Effect.promise(() =>
      handler(
        new Request(`http://probe.test/guilds/${guildId}/members`, { headers: { authorization: "Bot partition" } })
      )
    )

  it.effect("different guild ids do not share a bucket; the bucket id stays the same", () =>
    Effect.gen(function* () {
      const first = yield* get("1000000000000000001")
      yield* get("1000000000000000001")
      expect((yield* get("1000000000000000001")).status).toBe(429)
      const other = yield* get("1000000000000000002")
      expect(other.status).toBe(200)
      expect(other.headers.get("x-ratelimit-remaining")).toBe("1")
      expect(other.headers.get("x-ratelimit-bucket")).toBe(first.headers.get("x-ratelimit-bucket"))
    })
  )

  it.effect("a guild's count goes on after more guilds than a route keeps prepared counts for", () =>
    Effect.gen(function* () {
      expect((yield* get("1000000000000000100")).headers.get("x-ratelimit-remaining")).toBe("1")
      // 300 other guilds: more than the 256 callers a route keeps, so the first one's is let go
      for (let i = 0; i < 300; i++) expect((yield* get(String(1000000000000001000n + BigInt(i)))).status).toBe(200)
      const again = yield* get("1000000000000000100")
      expect(again.status).toBe(200)
      expect(again.headers.get("x-ratelimit-remaining")).toBe("0")
      expect((yield* get("1000000000000000100")).status).toBe(429)
    })
  )

  it("disposes", async () => {
    await dispose()
  })
})

// The limiter's headers with the edge in front (handed to the edge's pre-response step) and without
// it (a pre-response handler of the limiter's own). Their order on the wire behind the edge is pinned
// by compiled-answers.test.ts (compiled and routed answers byte for byte, CORS and 429 included).
class PlainProbe extends HttpApiGroup.make("plain").add(
  HttpApiEndpoint.get("ping", "/ping", { success: Schema.Struct({ ok: Schema.Boolean }) })
) {}
class PlainProbeApi extends HttpApi.make("plain-probe")
  .add(PlainProbe)
  .middleware(FormBodyErrors.FormBodyErrors)
  .middleware(RateLimit.RateLimit) {}

describe("The limiter's headers with and without the edge", () => {
  const ORIGIN = "https://app.probe.test"
  const serve = (edge: boolean) =>
    HttpRouter.toWebHandler(
      limitedProbe(
        HttpApiBuilder.layer(PlainProbeApi).pipe(
          Layer.provide(
            HttpApiBuilder.group(PlainProbeApi, "plain", (h) => h.handle("ping", () => Effect.succeed({ ok: true })))
          )
        ),
        RouteLimiter.RouteLimiter.layerInProcess.pipe(
          Layer.provide(
            RouteBuckets.RouteBuckets.layer({
              buckets: { ping: { limit: 2, windowMs: 60_000 } },
              routes: { "plain.ping": "ping" }
            })
          )
        )
      ),
      edge
        ? {
            disableLogger: true,
            middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: false, corsOrigins: [ORIGIN] })
          }
        : { disableLogger: true }
    )
  const withEdge = serve(true)
  const withoutEdge = serve(false)
  const names = (response: Response) => [...response.headers.keys()]
  const limiterNames = (response: Response) =>
    names(response).filter((name) => name.startsWith("x-ratelimit") || name === "retry-after")
  const ping = (host: typeof withEdge) =>
    Effect.promise(() => host.handler(new Request("http://probe.test/ping", { headers: { origin: ORIGIN } })))

  it.effect("carry the same limiter headers on a 200 and a 429", () =>
    Effect.gen(function* () {
      for (const status of [200, 200, 429]) {
        const edged = yield* ping(withEdge)
        const plain = yield* ping(withoutEdge)
        expect([edged.status, plain.status]).toEqual([status, status])
        expect(limiterNames(edged)).toEqual(limiterNames(plain))
        expect(limiterNames(edged)).toEqual(
          status === 200
            ? [
                "x-ratelimit-bucket",
                "x-ratelimit-limit",
                "x-ratelimit-remaining",
                "x-ratelimit-reset",
                "x-ratelimit-reset-after"
              ]
            : [
                "retry-after",
                "x-ratelimit-bucket",
                "x-ratelimit-limit",
                "x-ratelimit-remaining",
                "x-ratelimit-reset",
                "x-ratelimit-reset-after",
                "x-ratelimit-scope"
              ]
        )
        expect(edged.headers.get("x-ratelimit-remaining")).toBe(plain.headers.get("x-ratelimit-remaining"))
        expect(edged.headers.get("access-control-allow-origin")).toBe(ORIGIN)
      }
    })
  )

  it("disposes", async () => {
    await withEdge.dispose()
    await withoutEdge.dispose()
  })
})
