/**
 * The listener's `HttpServer` with `serve` run from a flat context: every request fiber starts from
 * the context `serve` runs in (NodeHttpServer's `makeHandler` keeps `parent.context`), and the
 * layer that calls it adds its `Scope` as an overlay. effect's `Context.add` keeps up to eight
 * overlays and then copies the whole map: the framework adds seven per request (the request, its
 * scope and state, the routed request, search params, route), so with the listener's overlay the
 * Authorization middleware's second service (`GET /users/@me`: the principal and the prefetched
 * account) made every such request copy its context (≈30 entries, 4 KB). Flattened once here, the
 * same services start at depth 0. Nothing else changes: the same services, the same scope.
 */
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"

const flat = <R>(context: Context.Context<R>): Context.Context<R> => Context.makeUnsafe(new Map(context.mapUnsafe))

/** Provides `HttpServer` from the `HttpServer` it is given, whose `serve` starts from a flat context. */
export const layer: Layer.Layer<HttpServer.HttpServer, never, HttpServer.HttpServer> = Layer.effect(
  HttpServer.HttpServer,
  Effect.map(HttpServer.HttpServer, (server: HttpServer.HttpServer["Service"]) =>
    HttpServer.HttpServer.of({
      address: server.address,
      serve: ((effect: Parameters<typeof server.serve>[0], middleware?: Parameters<typeof server.serve>[1]) =>
        Effect.updateContext(
          middleware === undefined ? server.serve(effect) : server.serve(effect, middleware),
          flat
        )) as typeof server.serve
    })
  )
)
