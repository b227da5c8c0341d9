/**
 * A reference, not a floor: a one-endpoint Effect HttpApi server answering `GET /api/v10/version`
 * with the same JSON, on the same Node adapter as the reference server, with nothing of Veche's
 * (no edge, limiter, access log or domain; request logger and spans off). Measured against the
 * node:http floor, it says what the framework alone costs; measured against it, Veche's own cost.
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, References, Schema } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

const Version = Schema.Struct({ version: Schema.String, api: Schema.Number, env: Schema.String })
class Service extends HttpApiGroup.make("service").add(
  HttpApiEndpoint.get("version", "/version", { success: Version })
) {}
class Api extends HttpApi.make("reference").add(Service) {}

const version = { version: "0.1.0", api: 1, env: "prod" }
const handlers = HttpApiBuilder.group(Api, "service", (group) => group.handle("version", () => Effect.succeed(version)))
const routes = HttpApiBuilder.layer(Api).pipe(
  Layer.provide(
    Layer.effect(
      HttpRouter.HttpRouter,
      Effect.map(HttpRouter.HttpRouter, (r) => r.prefixed("/api/v10"))
    )
  ),
  Layer.provide(handlers)
)

const port = Number(process.env.PORT ?? 0)
HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port })),
  Layer.provide(Layer.succeed(References.TracerEnabled, false)),
  Layer.launch,
  NodeRuntime.runMain
)
