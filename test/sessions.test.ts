/**
 * Sessions and tokens through HTTP: refresh rotation, expiry, logout, the session list. Sessions are
 * started through the host's domain (as login does). Refresh reuse and races are in
 * support/SessionScenarios.ts, run here and on PostgreSQL.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Sessions } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, Redacted } from "effect"
import { sessionScenarios } from "./support/SessionScenarios.ts"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const client = { userAgent: "vitest", address: "203.0.113.9", country: null }

let users = 0
const login = (userId?: Snowflake.Snowflake) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const id = userId ?? Snowflake.Snowflake.make(String(1_400_000_000_000_000_000n + BigInt(++users)))
    const pair = yield* host.run(Effect.flatMap(Effect.service(Sessions.Sessions), (s) => s.start(id, client)))
    return { userId: id, access: Redacted.value(pair.accessToken), refresh: Redacted.value(pair.refreshToken) }
  })

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } })
const refresh = (token: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch("/api/v10/auth/refresh", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refresh_token: token })
    })
  )

describe("Sessions over HTTP", () => {
  // generous limits: these tests are about sessions, not rate limits
  layer(TestHost.layer({ rateLimits: { global: { limit: 10_000, windowMs: 1_000 } } }))((it) => {
    it.effect("an access token opens user routes; refresh answers a new TokenPair and retires the old pair", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const session = yield* login()
        const listed = yield* host.fetch("/api/v10/auth/sessions", bearer(session.access))
        expect(listed.status).toBe(200)
        const refreshed = yield* refresh(session.refresh)
        expect(refreshed.status).toBe(200)
        const pair = (yield* json(refreshed)) as Record<string, unknown>
        expect(pair).toEqual({
          access_token: expect.stringMatching(/^vat_[A-Za-z0-9_-]{43}$/),
          refresh_token: expect.stringMatching(/^vrt_[A-Za-z0-9_-]{43}$/),
          token_type: "Bearer",
          expires_in: 3600,
          user_id: session.userId
        })
        expect((yield* host.fetch("/api/v10/auth/sessions", bearer(String(pair.access_token)))).status).toBe(200)
        const oldAccess = yield* host.fetch("/api/v10/auth/sessions", bearer(session.access))
        expect(oldAccess.status).toBe(401)
        expect(yield* json(oldAccess)).toEqual({ code: 50014, message: "Invalid authentication token" })
        const oldRefresh = yield* refresh(session.refresh)
        expect(oldRefresh.status).toBe(401)
        expect(yield* json(oldRefresh)).toEqual({ code: 50014, message: "Invalid authentication token" })
      })
    )

    it.effect("an expired access token answers 40001; refresh still works until the session ends", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const session = yield* login()
        yield* host.adjustClock("1 hour")
        const expired = yield* host.fetch("/api/v10/auth/sessions", bearer(session.access))
        expect(expired.status).toBe(401)
        expect(yield* json(expired)).toEqual({ code: 40001, message: "Unauthorized" })
        const pair = (yield* json(yield* refresh(session.refresh))) as { refresh_token: string }
        // the session's absolute end is not moved by refreshing
        yield* host.adjustClock("60 days")
        expect((yield* refresh(pair.refresh_token)).status).toBe(401)
      })
    )

    it.effect("lists only the caller's sessions, marks the current one, and ends the others", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const first = yield* login()
        const second = yield* login(first.userId)
        const stranger = yield* login()
        const listed = (yield* json(yield* host.fetch("/api/v10/auth/sessions", bearer(second.access)))) as Array<{
          current: boolean
          client_info: unknown
        }>
        expect(listed).toHaveLength(2)
        expect(listed.filter((s) => s.current)).toHaveLength(1)
        expect(listed[0]?.client_info).toEqual({ user_agent: "vitest", ip: "203.0.113.9", country: null })
        const ended = yield* host.fetch("/api/v10/auth/sessions", { method: "DELETE", ...bearer(second.access) })
        expect(ended.status).toBe(204)
        expect((yield* host.fetch("/api/v10/auth/sessions", bearer(first.access))).status).toBe(401)
        expect((yield* host.fetch("/api/v10/auth/sessions", bearer(second.access))).status).toBe(200)
        expect((yield* host.fetch("/api/v10/auth/sessions", bearer(stranger.access))).status).toBe(200)
      })
    )

    it.effect("logout ends the current session on the next request", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const session = yield* login()
        const out = yield* host.fetch("/api/v10/auth/logout", { method: "POST", ...bearer(session.access) })
        expect(out.status).toBe(204)
        expect((yield* host.fetch("/api/v10/auth/sessions", bearer(session.access))).status).toBe(401)
        expect((yield* refresh(session.refresh)).status).toBe(401)
        expect((yield* host.fetch("/api/v10/auth/logout", { method: "POST" })).status).toBe(401)
      })
    )

    it.effect("refresh with a missing, empty or non-string token answers 50035", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const body of ["{}", '{"refresh_token": ""}', '{"refresh_token": 5}']) {
          const response = yield* host.fetch("/api/v10/auth/refresh", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body
          })
          expect(response.status).toBe(400)
          expect(((yield* json(response)) as { code: number }).code).toBe(50035)
        }
      })
    )
  })
})

// The scenarios that also run on PostgreSQL (adapters/postgres/test/SessionRoutes.test.ts).
sessionScenarios()
