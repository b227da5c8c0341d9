/** Handlers of the BotGateway group: a bot's gateway discovery, with its real session-start budget. */
import { Principal, RestApi } from "@veche/api"
import { Gateway } from "@veche/gateway"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GatewayUrl } from "../GatewayUrl.ts"
import type * as GroupLayer from "./GroupLayer.ts"

export const layer: GroupLayer.Authorized<"botGateway", GatewayUrl | Gateway.Gateway> = HttpApiBuilder.group(
  RestApi.RestApi,
  "botGateway",
  (handlers) =>
    Effect.gen(function* () {
      const gatewayUrl = yield* GatewayUrl
      const gateway = yield* Gateway.Gateway
      return handlers.handle("gatewayBot", () =>
        Effect.gen(function* () {
          const bot = yield* Principal.requireBot
          // what the gateway counts: identifies per 5 s bucket and per day (IdentifyLimits)
          const session_start_limit = yield* gateway.budget(bot.userId)
          return { url: gatewayUrl.url, shards: 1, session_start_limit }
        })
      )
    })
)
