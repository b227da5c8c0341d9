/** The access log: one entry per answered request, written in batches by the reference server's sink. */
import { describe, expect, it } from "@effect/vitest"
import { AccessLog, HttpEdge } from "@veche/rest"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

class PingGroup extends HttpApiGroup.make("ping").add(
  HttpApiEndpoint.get("ping", "/ping", { success: Schema.Struct({ ok: Schema.Boolean }) })
) {}
class PingApi extends HttpApi.make("ping").add(PingGroup) {}
const routes = HttpApiBuilder.layer(PingApi).pipe(
  Layer.provide(HttpApiBuilder.group(PingApi, "ping", (h) => h.handle("ping", () => Effect.succeed({ ok: true })))),
  Layer.provide(HttpServer.layerServices)
)

describe("Access log", () => {
  it.effect("the edge hands the sink one entry per request, error answers included, with their final status", () =>
    Effect.gen(function* () {
      const entries: Array<AccessLog.Entry> = []
      const { handler, dispose } = HttpRouter.toWebHandler(routes, {
        disableLogger: true,
        middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: (entry) => entries.push(entry) })
      })
      yield* Effect.addFinalizer(() => Effect.promise(dispose))
      const ok = yield* Effect.promise(() => handler(new Request("http://edge.test/ping?x=1")))
      const missing = yield* Effect.promise(() => handler(new Request("http://edge.test/nothing", { method: "POST" })))
      expect([ok.status, missing.status]).toEqual([200, 404])
      expect(entries.map(({ method, url, status, address }) => ({ method, url, status, address }))).toEqual([
        { method: "GET", url: "/ping?x=[redacted]", status: 200, address: undefined },
        { method: "POST", url: "/nothing", status: 404, address: undefined }
      ])
      for (const entry of entries) expect(entry.durationMs).toBeGreaterThanOrEqual(0)
      // every request its own id
      expect(new Set(entries.map((entry) => entry.requestId)).size).toBe(2)
    }).pipe(Effect.scoped)
  )

  it("a line names the time (UTC), the request, its status, its duration and the client", () => {
    const at = Date.UTC(2026, 10, 22, 9, 5, 7, 42)
    expect(
      AccessLog.line(
        {
          method: "GET",
          url: "/api/v10/version",
          status: 200,
          durationMs: 0.44,
          address: "203.0.113.7",
          requestId: "5f3a9c1e-2s"
        },
        at
      )
    ).toBe("[09:05:07.042] INFO access: GET /api/v10/version 200 0.4ms 203.0.113.7 req=5f3a9c1e-2s")
    expect(
      AccessLog.describe({ method: "GET", url: "/", status: 404, durationMs: 12, address: undefined, requestId: "a-1" })
    ).toBe("GET / 404 12.0ms - req=a-1")
  })

  it("a duration reads as toFixed(1) would write it, around 0.05 ms too (the short ones skip toFixed)", () => {
    const durations = [0, -0, 1e-9, 0.01, 0.0499999, 0.049999999999999996, 0.05, 0.0500001, 0.05000000000000001, 0.06]
    for (let i = 0; i < 2000; i++) durations.push(i / 20_000, (i + 0.5) / 20_000, i / 7)
    for (const durationMs of durations) {
      const described = AccessLog.describe({
        method: "GET",
        url: "/",
        status: 200,
        durationMs,
        address: "-",
        requestId: "a"
      })
      expect(described, String(durationMs)).toBe(`GET / 200 ${durationMs.toFixed(1)}ms - req=a`)
    }
  })

  it("the batched sink writes the lines of one event-loop turn in one chunk, in order", async () => {
    const chunks: Array<string> = []
    const sink = AccessLog.batched((chunk) => chunks.push(chunk))
    for (const status of [200, 201, 204])
      sink({ method: "GET", url: "/x", status, durationMs: 1, address: "-", requestId: `r-${status}` })
    expect(chunks).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(1)
    expect(chunks[0]?.split("\n").map((text) => text.replace(/^\[[^\]]+\] /, ""))).toEqual([
      "INFO access: GET /x 200 1.0ms - req=r-200",
      "INFO access: GET /x 201 1.0ms - req=r-201",
      "INFO access: GET /x 204 1.0ms - req=r-204",
      ""
    ])
    sink({ method: "GET", url: "/y", status: 200, durationMs: 1, address: "-", requestId: "r-1" })
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(2)
  })

  it("query values are written only for known-safe names; control characters are escaped", () => {
    expect(AccessLog.redactQuery("/api/v10/exports/1?token=abc.def")).toBe("/api/v10/exports/1?token=[redacted]")
    expect(AccessLog.redactQuery("/api/v10/dev/outbox?to=%2B79051234567")).toBe("/api/v10/dev/outbox?to=[redacted]")
    expect(AccessLog.redactQuery("/x?limit=5&code=123456&after=42&secret")).toBe(
      "/x?limit=5&code=[redacted]&after=42&[redacted]"
    )
    expect(AccessLog.redactQuery("/x?with_counts=true&%74oken=abc&a%3Db=c")).toBe(
      "/x?with_counts=true&[redacted]&[redacted]"
    )
    expect(AccessLog.redactQuery("/plain/path")).toBe("/plain/path")
    expect(AccessLog.redactQuery("/a\nb?c=\r")).toBe("/a%0Ab?c=[redacted]")
  })
})
