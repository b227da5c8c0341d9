/** Handlers of the BotGateway group: a bot's gateway discovery. */
import { Principal, RestApi } from "@veche/api"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GatewayUrl } from "../GatewayUrl.ts"
import type * as GroupLayer from "./GroupLayer.ts"

// What a single-shard bot may do until the gateway tracks identifies (the gateway issue replaces
// these with the real per-bot budget).
const SESSION_START_LIMIT = { total: 1000, remaining: 1000, reset_after: 0, max_concurrency: 1 }

export const layer: GroupLayer.Authorized<"botGateway", GatewayUrl> = HttpApiBuilder.group(
  RestApi.RestApi,
  "botGateway",
  (handlers) =>
    Effect.gen(function* () {
      const gateway = yield* GatewayUrl
      return handlers.handle("gatewayBot", () =>
        Effect.as(Principal.requireBot, { url: gateway.url, shards: 1, session_start_limit: SESSION_START_LIMIT })
      )
    })
)
