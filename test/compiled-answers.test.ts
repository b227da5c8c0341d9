/**
 * The edge's compiled answers (`CompiledAnswers`): the same wire output as the routed path, header
 * by header, for what they answer (`/version`, `/gateway`, their 429) and for what they leave to the
 * router (404, 405, a preflight, a query string), and the same access-log entries.
 */
import { describe, expect, it } from "@effect/vitest"
import { ServiceInfo } from "@veche/platform"
import { RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { type AccessLog, CompiledAnswers, GatewayUrl } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Context, Effect, Exit, Layer } from "effect"

const ORIGIN = "https://web.veche.test"

const hostWith = (compiledAnswers: boolean, entries: Array<AccessLog.Entry>) =>
  Effect.map(
    Layer.build(
      TestHost.layer({
        compiledAnswers,
        accessLog: (entry) => entries.push(entry),
        corsOrigins: [ORIGIN],
        rateLimits: { buckets: { version: { limit: 2, windowMs: 10_000 } } }
      })
    ),
    Context.get(TestHost.TestHost)
  )

interface Wire {
  readonly status: number
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: string
}

const wire = (response: Response): Effect.Effect<Wire> =>
  Effect.map(
    Effect.promise(() => response.text()),
    (body) => ({ status: response.status, headers: [...response.headers], body })
  )

/** Requests in order (limits count across them), each sent to both hosts at the same test time. */
const REQUESTS: ReadonlyArray<readonly [string, RequestInit]> = [
  ["/api/v10/version", { headers: { origin: ORIGIN } }],
  ["/api/v1/gateway", {}],
  ["/api/v9/version", { headers: { origin: "https://elsewhere.test" } }],
  // the version bucket (2) is used up for 127.0.0.1: both answer the 429
  ["/api/v10/version", { headers: { origin: ORIGIN } }],
  ["/api/v10/version?with=query", {}],
  ["/api/v10/version", { headers: { "x-forwarded-for": "192.0.2.7" } }],
  ["/api/v10/gateway", { headers: { "x-forwarded-for": "2001:db8::1" } }],
  ["/api/v10/nothing-here", {}],
  ["/api/v10/version", { method: "POST", body: "{}", headers: { "content-type": "application/json" } }],
  ["/api/v10/version", { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET" } }],
  ["/api/v10/version", { method: "HEAD" }]
]

describe("Compiled answers at the edge", () => {
  it.effect("answer on the wire exactly as the routed path, access-log entries included", () =>
    Effect.gen(function* () {
      const compiledLog: Array<AccessLog.Entry> = []
      const routedLog: Array<AccessLog.Entry> = []
      const compiled = yield* hostWith(true, compiledLog)
      const routed = yield* hostWith(false, routedLog)
      const statuses: Array<number> = []
      for (const [path, init] of REQUESTS) {
        const viaCompiled = yield* wire(yield* compiled.fetch(path, init))
        const viaRouter = yield* wire(yield* routed.fetch(path, init))
        expect(viaCompiled, `${init.method ?? "GET"} ${path}`).toEqual(viaRouter)
        statuses.push(viaCompiled.status)
      }
      // the sequence did reach every case
      expect(statuses).toEqual([200, 200, 200, 429, 429, 200, 200, 404, 405, 204, 405])
      const comparable = ({ requestId: _id, durationMs: _ms, ...rest }: AccessLog.Entry) => rest
      expect(compiledLog.map(comparable)).toEqual(routedLog.map(comparable))
      // every request but the preflight, which CORS answers before the log step (on both paths)
      expect(compiledLog.length).toBe(REQUESTS.length - 1)
    }).pipe(Effect.scoped)
  )
})

describe("Compiling the table", () => {
  const services = Layer.mergeAll(
    ServiceInfo.ServiceInfo.layer({ version: "1.2.3", env: "prod" }),
    Layer.orDie(GatewayUrl.GatewayUrl.layer("ws://veche.test/gateway")),
    RouteLimiter.RouteLimiter.layerInProcess.pipe(Layer.provide(RouteBuckets.RouteBuckets.layer()))
  )
  it.effect("holds the Service group's endpoints under every prefix, and takes only bodiless GETs of them", () =>
    Effect.gen(function* () {
      const table = CompiledAnswers.makeTable()
      yield* Layer.build(CompiledAnswers.layer(table).pipe(Layer.provide(services)))
      expect([...table.byPath.keys()].sort()).toEqual([
        "/api/v1/gateway",
        "/api/v1/version",
        "/api/v10/gateway",
        "/api/v10/version",
        "/api/v9/gateway",
        "/api/v9/version"
      ])
      expect(table.lookup("GET", "/api/v10/version", {})).toBeDefined()
      expect(table.lookup("POST", "/api/v10/version", {})).toBeUndefined()
      expect(table.lookup("HEAD", "/api/v10/version", {})).toBeUndefined()
      expect(table.lookup("GET", "/api/v10/version?x=1", {})).toBeUndefined()
      expect(table.lookup("GET", "/api/v10/version", { "content-length": "0" })).toBeUndefined()
      expect(table.lookup("GET", "/api/v10/version", { "transfer-encoding": "chunked" })).toBeUndefined()
      const answer = table.lookup("GET", "/api/v10/version", {})?.("192.0.2.1", 0)
      expect(answer?.response.status).toBe(200)
      expect(answer?.body).toBe('{"version":"1.2.3","api":1,"env":"prod"}')
    }).pipe(Effect.scoped)
  )

  it.effect("refuses at start an answer for an endpoint that takes credentials, params or a body", () =>
    Effect.gen(function* () {
      const prepareSync = yield* Effect.map(Effect.service(RouteLimiter.RouteLimiter), (limiter) => limiter.prepareSync)
      if (prepareSync === undefined) return yield* Effect.die("the in-process limiter counts synchronously")
      const refusedFor = (group: string, identifier: string) =>
        Effect.exit(
          CompiledAnswers.compile(CompiledAnswers.makeTable(), group, { [identifier]: () => ({}) }, prepareSync)
        )
      for (const [group, identifier] of [
        ["botGateway", "gatewayBot"],
        ["users", "me"],
        ["service", "nothing"]
      ] as const) {
        const exit = yield* refusedFor(group, identifier)
        expect(Exit.isFailure(exit), `${group}.${identifier}`).toBe(true)
      }
      expect(Exit.isSuccess(yield* refusedFor("service", "version"))).toBe(true)
    }).pipe(Effect.provide(services))
  )
})
