/** What every request meets before and after the routes: 404/405, path decoding, docs, bodies. */
import { describe, expect, it, layer } from "@effect/vitest"
import { FormBodyErrors, RestApi } from "@veche/api"
import { FormBodyErrorsMiddleware, HttpEdge } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

describe("Routing", () => {
  layer(TestHost.layer())((it) => {
    it.effect("unknown routes answer 404 code 0, with or without a token, inside and outside the API", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const [path, headers] of [
          ["/api/v10/nothing/here", {}],
          ["/api/v10/nothing/here", { authorization: "Bot abc.def" }],
          ["/api/v10/users/@me/nothing", { authorization: "Bearer xyz" }],
          ["/api/v11/version", {}],
          ["/", {}],
          ["/favicon.ico", {}]
        ] as const) {
          const response = yield* host.fetch(path, { headers })
          expect({ path, status: response.status }).toEqual({ path, status: 404 })
          expect(yield* json(response)).toEqual({ code: 0, message: "404: Not Found" })
        }
      })
    )

    it.effect("a known path with the wrong method answers 405 code 0 with Allow", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
          const response = yield* host.fetch("/api/v9/version", { method })
          expect(response.status).toBe(405)
          expect(response.headers.get("allow")).toBe("GET")
          expect(yield* json(response)).toEqual({ code: 0, message: "405: Method Not Allowed" })
        }
      })
    )

    it.effect("percent-encoded path segments route as decoded; an encoded slash does not split a segment", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        expect((yield* host.fetch("/api/v10/%76ersion")).status).toBe(200)
        expect((yield* host.fetch("/api/v10/gat%65way/bot")).status).toBe(401)
        expect((yield* host.fetch("/api/v10/gateway%2Fbot")).status).toBe(404)
        expect((yield* host.fetch("/api/v10/%E0%A4%A")).status).toBe(404)
      })
    )

    it.effect("serves the OpenAPI document and a docs page generated from the API", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const spec = (yield* json(yield* host.fetch("/api/v1/openapi.json"))) as {
          openapi: string
          paths: Record<string, unknown>
          components: { securitySchemes: Record<string, unknown> }
        }
        expect(spec.openapi).toMatch(/^3\./)
        // every endpoint of the API, and nothing else, under the documented base path
        const endpoints = new Set<string>()
        HttpApi.reflect(RestApi.RestApi, {
          onGroup: () => {},
          onEndpoint: ({ endpoint }) => {
            endpoints.add(`/api/v1${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
          }
        })
        expect(Object.keys(spec.paths).sort()).toEqual([...endpoints].sort())
        expect(spec.paths).toHaveProperty(["/api/v1/users/@me"])
        expect(Object.keys(spec.components.securitySchemes).sort()).toEqual(["bearer", "bot"])
        // made at the first request (not at start), then the same page every time
        for (let i = 0; i < 2; i++) {
          const docs = yield* host.fetch("/api/v1/docs")
          expect(docs.status).toBe(200)
          expect(docs.headers.get("content-type")).toContain("text/html")
          // on the web pages' origin: never framed, never sniffed, no referrer
          expect(docs.headers.get("x-frame-options")).toBe("DENY")
          expect(docs.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
          expect(docs.headers.get("x-content-type-options")).toBe("nosniff")
          expect(docs.headers.get("referrer-policy")).toBe("no-referrer")
          const page = yield* Effect.promise(() => docs.text())
          expect(page).toContain("createApiReference")
          expect(page).toContain('"/api/v1/users/@me"')
        }
      })
    )
  })
})

describe("HttpEdge.decodePath", () => {
  it("decodes each segment and keeps reserved characters encoded", () => {
    expect(HttpEdge.decodePath("/api/v10/users/%40me?with_counts=true")).toBe("/api/v10/users/@me?with_counts=true")
    expect(HttpEdge.decodePath("/a%2Fb/c")).toBe("/a%2Fb/c")
    expect(HttpEdge.decodePath("/a%3Fb%23c%25")).toBe("/a%3Fb%23c%25")
    expect(HttpEdge.decodePath("/plain/path?q=%40")).toBe("/plain/path?q=%40")
    expect(HttpEdge.decodePath("/bad%E0%A4%A")).toBe("/bad%E0%A4%A")
  })
})

// Request bodies: the foundation's own routes take none yet, so a probe API served with the same
// FormBodyErrors middleware, edge middleware and body limit stands in until the accounts routes
// (which carry these checks on real endpoints) arrive.
class ProbeGroup extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.post("echo", "/echo", {
    payload: Schema.Struct({
      name: Schema.String.pipe(Schema.check(Schema.isBetweenLength(2, 32))),
      count: Schema.Int,
      tags: Schema.Array(Schema.String.pipe(Schema.check(Schema.isMaxLength(4))))
    }),
    success: Schema.Struct({ name: Schema.String })
  })
) {}
class ProbeApi extends HttpApi.make("probe")
  .add(ProbeGroup)
  .middleware(FormBodyErrors.FormBodyErrors)
  .annotate(HttpApi.ParseOptions, { errors: "all" }) {}

const probeRoutes = HttpApiBuilder.layer(ProbeApi).pipe(
  Layer.provide(
    HttpApiBuilder.group(ProbeApi, "probe", (h) =>
      h.handle("echo", ({ payload }) => Effect.succeed({ name: payload.name }))
    )
  ),
  Layer.provide(FormBodyErrorsMiddleware.layer),
  Layer.provide(HttpServer.layerServices)
)

describe("Request bodies", () => {
  const { handler, dispose } = HttpRouter.toWebHandler(probeRoutes, {
    disableLogger: true,
    middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: false })
  })
  const post = (body: string, contentType = "application/json") =>
    Effect.promise(() =>
      handler(new Request("http://probe.test/echo", { method: "POST", headers: { "content-type": contentType }, body }))
    )

  it.effect("a valid body is decoded", () =>
    Effect.gen(function* () {
      const response = yield* post(JSON.stringify({ name: "ok", count: 1, tags: [] }))
      expect(response.status).toBe(200)
      expect(yield* json(response)).toEqual({ name: "ok" })
    })
  )

  it.effect("broken JSON answers 400 50109", () =>
    Effect.gen(function* () {
      const response = yield* post('{"name": "x",')
      expect(response.status).toBe(400)
      expect(yield* json(response)).toEqual({ code: 50109, message: "The request body contains invalid JSON." })
    })
  )

  it.effect("every invalid field is listed in one 400 50035", () =>
    Effect.gen(function* () {
      const response = yield* post(JSON.stringify({ name: "x", count: "seven", tags: ["ok", "too-long"] }))
      expect(response.status).toBe(400)
      const body = (yield* json(response)) as { code: number; message: string; errors: Record<string, unknown> }
      expect(body.code).toBe(50035)
      expect(body.message).toBe("Invalid Form Body")
      expect(Object.keys(body.errors).sort()).toEqual(["count", "name", "tags"])
      expect(body.errors.tags).toHaveProperty(["1", "_errors"])
    })
  )

  it.effect("a missing field is BASE_TYPE_REQUIRED", () =>
    Effect.gen(function* () {
      const response = yield* post(JSON.stringify({ count: 1, tags: [] }))
      expect(yield* json(response)).toEqual({
        code: 50035,
        message: "Invalid Form Body",
        errors: { name: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } }
      })
    })
  )

  it.effect("a body in another media type answers 400 50035 naming the content type", () =>
    Effect.gen(function* () {
      const response = yield* post("name=ok", "text/plain")
      expect(response.status).toBe(400)
      expect(yield* json(response)).toEqual({
        code: 50035,
        message: "Invalid Form Body",
        errors: {
          _errors: [
            {
              code: "CONTENT_TYPE_INVALID",
              message: expect.stringContaining(`Expected "Content-Type" header to be one of {'application/json'`)
            }
          ]
        }
      })
    })
  )

  it.effect("a 2 MB body answers 413 40005", () =>
    Effect.gen(function* () {
      const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), count: 1, tags: [] })
      const response = yield* post(big)
      expect(response.status).toBe(413)
      expect(yield* json(response)).toEqual({ code: 40005, message: "Request entity too large" })
    })
  )

  it.effect("JSON that is not an object, NUL bytes and huge numbers are form errors, not 500s", () =>
    Effect.gen(function* () {
      for (const body of [
        "[]",
        "null",
        '"text"',
        '{"name": "a\\u0000b", "count": 1e400, "tags": []}',
        '{"name": "ab", "count": 123456789012345678901234567890, "tags": []}',
        "\u0000"
      ]) {
        const response = yield* post(body)
        expect({ body, status: response.status }).toEqual({ body, status: 400 })
        const parsed = (yield* json(response)) as { code: number }
        expect([50035, 50109]).toContain(parsed.code)
      }
    })
  )

  it.effect("a body with 100 000 bad elements answers at once, listing the first 100 errors", () =>
    Effect.gen(function* () {
      const started = performance.now()
      const response = yield* post(JSON.stringify({ name: "ok", count: 1, tags: Array(100_000).fill("abcde") }))
      expect(response.status).toBe(400)
      const body = (yield* json(response)) as { code: number; errors: { tags: Record<string, unknown> } }
      expect(body.code).toBe(50035)
      expect(Object.keys(body.errors.tags)).toHaveLength(100)
      expect(body.errors.tags).toHaveProperty(["99", "_errors"])
      // it took over a minute before the cap (every merge copied the tree so far)
      expect(performance.now() - started).toBeLessThan(3_000)
    })
  )

  it("disposes", async () => {
    await dispose()
  })
})
