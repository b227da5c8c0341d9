/** The Service routes and the Authorization middleware, through the whole app on the test host. */
import { describe, expect, layer } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Authenticator } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

const bot = { kind: "bot" as const, userId: Snowflake.Snowflake.make("1311000000000000001") }
const user = { kind: "user" as const, userId: Snowflake.Snowflake.make("1311000000000000002") }
const authenticator = Authenticator.Authenticator.layerStatic([
  { scheme: "Bot", token: "MTMx.bot-token", principal: bot },
  { scheme: "Bearer", token: "vu_user-token", principal: user },
  { scheme: "Bot", token: "MTMx.short-lived", principal: bot, expiresAtMs: TestHost.START_TIME + 60_000 }
])

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

describe("Service routes", () => {
  layer(TestHost.layer({ authenticator }))((it) => {
    it.effect("GET /version answers the build version, api 1 and env on every base path", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const base of ["/api/v1", "/api/v9", "/api/v10"]) {
          const response = yield* host.fetch(`${base}/version`)
          expect(response.status).toBe(200)
          expect(response.headers.get("content-type")).toContain("application/json")
          expect(yield* json(response)).toEqual({ version: "0.0.0-test", api: 1, env: "dev" })
        }
      })
    )

    it.effect("GET /gateway answers the configured ws:// URL", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const response = yield* host.fetch("/api/v10/gateway")
        expect(response.status).toBe(200)
        expect(yield* json(response)).toEqual({ url: TestHost.GATEWAY_URL })
      })
    )

    it.effect("the typed client reads the same routes", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const client = yield* host.client()
        expect(yield* client.version()).toEqual({ version: "0.0.0-test", api: 1, env: "dev" })
        expect(yield* client.gateway()).toEqual({ url: TestHost.GATEWAY_URL })
      })
    )

    it.effect("GET /gateway/bot without a token answers 401 40001", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const response = yield* host.fetch("/api/v10/gateway/bot")
        expect(response.status).toBe(401)
        expect(yield* json(response)).toEqual({ code: 40001, message: "Unauthorized" })
      })
    )

    it.effect("malformed and unknown credentials answer 401 50014", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const authorization of [
          "Bot not-a-known-token",
          "Bearer not-a-known-token",
          "Basic dXNlcjpwYXNz",
          "MTMx.bot-token",
          "Bot two words",
          "Bot tok\u00e9n",
          "Bearer MTMx.bot-token", // a bot token under the user scheme
          "Bot vu_user-token"
        ]) {
          const response = yield* host.fetch("/api/v10/gateway/bot", { headers: { authorization } })
          expect({ authorization, status: response.status }).toEqual({ authorization, status: 401 })
          expect(yield* json(response)).toEqual({ code: 50014, message: "Invalid authentication token" })
        }
      })
    )

    it.effect("a bot token opens GET /gateway/bot, in any letter case of the scheme", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const scheme of ["Bot", "bot", "BOT"]) {
          const response = yield* host.fetch("/api/v10/gateway/bot", {
            headers: { authorization: `${scheme} MTMx.bot-token` }
          })
          expect(response.status).toBe(200)
          expect(yield* json(response)).toEqual({
            url: TestHost.GATEWAY_URL,
            shards: 1,
            session_start_limit: { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }
          })
        }
        const client = yield* host.client({ scheme: "Bot", token: "MTMx.bot-token" })
        expect((yield* client.gatewayBot()).shards).toBe(1)
      })
    )

    it.effect("a user token on GET /gateway/bot answers 403 20002", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const response = yield* host.fetch("/api/v10/gateway/bot", {
          headers: { authorization: "Bearer vu_user-token" }
        })
        expect(response.status).toBe(403)
        expect(yield* json(response)).toEqual({ code: 20002, message: "Only bots can use this endpoint" })
      })
    )

    it.effect("an expired token answers 401 40001 once the clock passes its expiry", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const call = () => host.fetch("/api/v10/gateway/bot", { headers: { authorization: "Bot MTMx.short-lived" } })
        expect((yield* call()).status).toBe(200)
        yield* host.adjustClock("61 seconds")
        const response = yield* call()
        expect(response.status).toBe(401)
        expect(yield* json(response)).toEqual({ code: 40001, message: "Unauthorized" })
      })
    )
  })
})

describe("Without an accounts domain", () => {
  layer(TestHost.layer())((it) => {
    it.effect("no bot token is valid, so GET /gateway/bot answers 401", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const response = yield* host.fetch("/api/v10/gateway/bot", { headers: { authorization: "Bot MTMx.bot-token" } })
        expect(response.status).toBe(401)
        expect(yield* json(response)).toEqual({ code: 50014, message: "Invalid authentication token" })
      })
    )
  })
})
