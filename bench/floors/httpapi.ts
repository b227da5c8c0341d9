/**
 * A reference, not a floor: a one-endpoint Effect HttpApi server answering `GET /api/v10/version`
 * with the same JSON, on the same Node adapter as the reference server, with nothing of Veche's
 * (no edge, limiter, access log or domain; request logger and spans off). Measured against the
 * node:http floor, it says what the framework alone costs; measured against it, Veche's own cost.
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer, References } from "effect"
import { HttpRouter } from "effect/http"
import * as VersionApps from "../lib/VersionApps.ts"

const port = Number(process.env.PORT ?? 0)
HttpRouter.serve(VersionApps.httpApi, { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port })),
  Layer.provide(Layer.succeed(References.TracerEnabled, false)),
  Layer.launch,
  NodeRuntime.runMain
)
