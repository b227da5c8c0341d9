/** Handlers of the Service group. */
import { ServiceInfo } from "@veche/platform"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GatewayUrl } from "../GatewayUrl.ts"
import { requireBot } from "../Principal.ts"
import { RestApi } from "../RestApi.ts"

// What a single-shard bot may do until the gateway tracks identifies (the gateway issue replaces
// these with the real per-bot budget).
const SESSION_START_LIMIT = { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }

export const layer = HttpApiBuilder.group(RestApi, "service", (handlers) =>
  Effect.gen(function* () {
    const info = yield* ServiceInfo.ServiceInfo
    const gateway = yield* GatewayUrl
    const version = { version: info.version, api: 1 as const, env: info.env }
    return handlers
      .handle("version", () => Effect.succeed(version))
      .handle("gateway", () => Effect.succeed({ url: gateway.url }))
      .handle("gatewayBot", () =>
        Effect.as(requireBot, { url: gateway.url, shards: 1, session_start_limit: SESSION_START_LIMIT })
      )
  })
)
