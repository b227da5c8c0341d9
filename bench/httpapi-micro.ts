/**
 * `node bench/httpapi-micro.ts`: HttpApi's per-request cost without sockets. Builds the two
 * references of bench/lib/VersionApps.ts (a one-endpoint HttpApi, the same answer from a plain
 * HttpRouter route) and runs each one's whole served effect (`HttpEffect.toHandled`, as the Node
 * adapter runs it, with a no-op response writer) on a fiber of its own per request, as the server
 * does; slices of each alternate so the machine's drift hits both alike. Prints the median process
 * CPU µs per request of each side and the difference, HttpApi's own work.
 *
 *   MICRO_SLICES (20)  MICRO_REQUESTS (20000, per slice)
 *   MICRO_ONLY=router|httpapi  run one side only (to profile it: `node --cpu-prof bench/httpapi-micro.ts`)
 */
import { NodeHttpServer } from "@effect/platform-node"
import { Context, Effect, Exit, Layer, References, Scope } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import * as VersionApps from "./lib/VersionApps.ts"

const SLICES = Number(process.env.MICRO_SLICES ?? 20)
const REQUESTS = Number(process.env.MICRO_REQUESTS ?? 20_000)
const ONLY = process.env.MICRO_ONLY

// A server's context: its layers' services (padded to the dozen or so a served layer holds, so that
// lookups do not flatten each request's context as they would a tiny one), then a few overlays.
const scope = Scope.makeUnsafe()
const services = new Map<string, unknown>(
  Array.from({ length: 12 }, (_, i): [string, unknown] => [`bench/httpapi-micro/Padding${i}`, { i }])
)
services.set(References.TracerEnabled.key, false)
const context = Context.makeUnsafe(services)

const served = (routes: Layer.Layer<never, never, HttpRouter.HttpRouter>) => {
  const app = Effect.runSync(
    HttpRouter.toHttpEffect(routes).pipe(Effect.provideService(Scope.Scope, scope), Effect.provideContext(context))
  )
  let last: HttpServerResponse.HttpServerResponse | undefined
  const handled = HttpEffect.toHandled(app, (_request, response) => {
    last = response
    return Effect.void
  })
  const request = HttpServerRequest.fromWeb(new Request("http://127.0.0.1/api/v10/version"))
  const withRequest = Context.add(context, HttpServerRequest.HttpServerRequest, request)
  const once = () => {
    // As the Node adapter runs it: a fiber of its own (it completes at once: nothing here waits).
    const exit = Effect.runForkWith(withRequest)(handled).pollUnsafe()
    if (exit === undefined || !Exit.isSuccess(exit)) throw new Error(`did not complete: ${String(exit)}`)
  }
  once()
  if (last?.status !== 200) throw new Error(`answered ${last?.status}`)
  return once
}

// The platform services the Node adapter's layer gives both servers (HttpApi requires them).
const sides = {
  router: served(VersionApps.router.pipe(Layer.provide(NodeHttpServer.layerHttpServices))),
  httpapi: served(VersionApps.httpApi.pipe(Layer.provide(NodeHttpServer.layerHttpServices)))
}

const slice = (once: () => void): number => {
  const before = process.cpuUsage()
  for (let i = 0; i < REQUESTS; i++) once()
  const used = process.cpuUsage(before)
  return (used.user + used.system) / REQUESTS
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0
const results: Record<keyof typeof sides, Array<number>> = { router: [], httpapi: [] }
for (let s = 0; s < SLICES; s++) {
  const order: Array<keyof typeof sides> = s % 2 === 0 ? ["router", "httpapi"] : ["httpapi", "router"]
  for (const name of order) if (ONLY === undefined || ONLY === name) results[name].push(slice(sides[name]))
}
const router = median(results.router)
const httpapi = median(results.httpapi)
console.log(
  `median CPU µs/request over ${SLICES} slices of ${REQUESTS}: router ${router.toFixed(2)}, ` +
    `httpapi ${httpapi.toFixed(2)}, HttpApi's own ${(httpapi - router).toFixed(2)}`
)
