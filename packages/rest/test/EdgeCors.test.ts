/**
 * The edge sets CORS headers from its own pre-response step rather than through effect's `cors`
 * middleware: every answer must carry exactly what `cors` set before it, in the same order.
 */
import { describe, expect, it } from "@effect/vitest"
import { Layer } from "effect"
import { HttpMiddleware, HttpRouter, HttpServerResponse } from "effect/http"
import * as HttpEdge from "../src/HttpEdge.ts"

const ORIGINS = ["https://front.example", "http://localhost:5173"]

const routes = Layer.mergeAll(
  HttpRouter.add("GET", "/plain", HttpServerResponse.jsonUnsafe({ ok: true })),
  HttpRouter.add(
    "GET",
    "/varied",
    HttpServerResponse.jsonUnsafe({ ok: true }, { headers: { vary: "Accept-Encoding" } })
  ),
  HttpRouter.add("GET", "/text-error", HttpServerResponse.text("nope", { status: 409 }))
)

/** effect's `cors` around the edge without CORS: how the edge answered before. */
const before = HttpRouter.toWebHandler(routes, {
  disableLogger: true,
  middleware: (app) =>
    HttpMiddleware.cors({
      allowedOrigins: (origin) => ORIGINS.includes(origin),
      allowedHeaders: ["authorization", "content-type", "x-audit-log-reason"],
      exposedHeaders: [
        "retry-after",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "x-ratelimit-reset-after",
        "x-ratelimit-bucket",
        "x-ratelimit-scope",
        "x-ratelimit-global"
      ],
      maxAge: 600
    })(HttpEdge.middleware({ trustedProxies: [], accessLog: false })(app))
})

const now = HttpRouter.toWebHandler(routes, {
  disableLogger: true,
  middleware: HttpEdge.middleware({ trustedProxies: [], accessLog: false, corsOrigins: ORIGINS })
})

const answer = async (handler: (request: Request) => Promise<Response>, request: Request) => {
  const response = await handler(request)
  return { status: response.status, headers: [...response.headers], body: await response.text() }
}

describe("The edge's CORS", () => {
  it("answers what effect's cors answered: allowed, strange and no origin; preflights; errors; Vary merged", async () => {
    try {
      for (const path of ["/plain", "/varied", "/text-error", "/missing"]) {
        for (const origin of [undefined, "https://front.example", "http://localhost:5173", "https://evil.example"]) {
          const headers: Record<string, string> = origin === undefined ? {} : { origin }
          const get = () => new Request(`http://edge.test${path}`, { headers })
          expect(await answer(now.handler, get()), `${path} ${origin}`).toEqual(await answer(before.handler, get()))
          const preflight = () =>
            new Request(`http://edge.test${path}`, {
              method: "OPTIONS",
              headers: { ...headers, "access-control-request-method": "POST" }
            })
          expect(await answer(now.handler, preflight()), `OPTIONS ${path} ${origin}`).toEqual(
            await answer(before.handler, preflight())
          )
        }
      }
    } finally {
      await Promise.all([before.dispose(), now.dispose()])
    }
  })
})
