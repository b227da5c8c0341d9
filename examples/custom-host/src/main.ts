/**
 * Runs the integrator's host (App.ts) on Node at 127.0.0.1:8090.
 * Run: `./dev node examples/custom-host/src/main.ts`, then
 *   curl -H "Authorization: Bot $EXAMPLE_BOT_TOKEN" http://127.0.0.1:8090/api/v10/gateway/bot
 */
import { createServer } from "node:http"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"
import * as App from "./App.ts"

const app = App.layer({
  botToken: process.env.EXAMPLE_BOT_TOKEN ?? "example.bot-token",
  webUrl: "http://127.0.0.1:8090"
}).pipe(Layer.provide(NodeHttpServer.layer(createServer, { host: "127.0.0.1", port: 8090 })))

Layer.launch(app).pipe(NodeRuntime.runMain)
