/**
 * A reference beside `httpapi.ts`: the same `GET /api/v10/version` JSON from a plain Effect
 * HttpRouter route (same prefixed router, Node adapter, logger and spans off), with no HttpApi.
 * The difference between the two is HttpApiBuilder's own per-request work (bench/framework.ts).
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer, References } from "effect"
import { HttpRouter } from "effect/http"
import * as VersionApps from "../lib/VersionApps.ts"

const port = Number(process.env.PORT ?? 0)
HttpRouter.serve(VersionApps.router, { disableLogger: true, disableListenLog: true }).pipe(
  Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port })),
  Layer.provide(Layer.succeed(References.TracerEnabled, false)),
  Layer.launch,
  NodeRuntime.runMain
)
