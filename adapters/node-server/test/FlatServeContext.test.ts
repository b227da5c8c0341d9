import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Scope } from "effect"
import { HttpServer, HttpServerResponse } from "effect/http"
import * as FlatServeContext from "../src/FlatServeContext.ts"

class Marker extends Context.Service<Marker, { readonly name: string }>()("test/FlatServeContext/Marker") {}

// effect's Context keeps recent adds as overlays (`overlay`) over a shared map and copies the whole
// map once there are eight: a request's context starts from the one `serve` ran in.
const overlayOf = (context: Context.Context<never>) => (context as unknown as { overlay?: unknown }).overlay

describe("FlatServeContext", () => {
  it.effect("serves from the same services and scope, in a context without overlays", () =>
    Effect.gen(function* () {
      const seen: Array<Context.Context<Scope.Scope | Marker>> = []
      const listener = Layer.succeed(
        HttpServer.HttpServer,
        HttpServer.make({
          address: { _tag: "TcpAddress", hostname: "127.0.0.1", port: 1 },
          serve: () => Effect.withFiber((fiber) => Effect.sync(() => void seen.push(fiber.context as never)))
        } as never)
      )
      const server = Context.get(
        yield* Layer.build(FlatServeContext.layer.pipe(Layer.provide(listener))),
        HttpServer.HttpServer
      )
      const scope = yield* Scope.Scope
      // The caller's context has overlays (the marker, added last).
      yield* Effect.gen(function* () {
        expect(overlayOf((yield* Effect.context<never>()) as never)).toBeDefined()
        yield* server.serve(Effect.succeed(HttpServerResponse.empty()))
      }).pipe(Effect.provideService(Marker, { name: "marker" }))
      expect(seen).toHaveLength(1)
      const served = seen[0] as Context.Context<Scope.Scope | Marker>
      expect(Context.get(served, Marker).name).toBe("marker")
      expect(Context.get(served, Scope.Scope)).toBe(scope)
      expect(overlayOf(served as never)).toBeUndefined()
    }).pipe(Effect.scoped)
  )
})
