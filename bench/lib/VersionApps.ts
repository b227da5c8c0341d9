/**
 * The two framework references of `GET /api/v10/version` (same JSON as the node:http floor), as
 * route layers: a one-endpoint HttpApi and the same answer from a plain HttpRouter route, both under
 * the same `/api/v10` prefix. Served by bench/floors/{httpapi,router}.ts, run in-process by
 * bench/httpapi-micro.ts.
 */
import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"

const version = { version: "0.1.0", api: 1, env: "prod" }

const Version = Schema.Struct({ version: Schema.String, api: Schema.Number, env: Schema.String })
class Service extends HttpApiGroup.make("service").add(
  HttpApiEndpoint.get("version", "/version", { success: Version })
) {}
class Api extends HttpApi.make("reference").add(Service) {}

const handlers = HttpApiBuilder.group(Api, "service", (group) => group.handle("version", () => Effect.succeed(version)))

/** The one-endpoint HttpApi. */
export const httpApi = HttpApiBuilder.layer(Api).pipe(
  Layer.provide(
    Layer.effect(
      HttpRouter.HttpRouter,
      Effect.map(HttpRouter.HttpRouter, (r) => r.prefixed("/api/v10"))
    )
  ),
  Layer.provide(handlers)
)

// What HttpApi answers for a JSON success: the body stringified per request, `application/json`.
const answer = Effect.sync(() => HttpServerResponse.text(JSON.stringify(version), { contentType: "application/json" }))

/** The same answer from a plain router route. */
export const router = HttpRouter.use((r) => r.prefixed("/api/v10").add("GET", "/version", answer))
