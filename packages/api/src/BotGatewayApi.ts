/**
 * A bot's gateway discovery: the gateway URL with the bot's shard count and session-start budget.
 * Bots only, so the group takes credentials. `topLevel`, as the Service group it was part of: a
 * typed client calls it `client.gatewayBot()`. Pure data.
 */
import { OnlyBotsCanUseThisEndpoint } from "@veche/errors"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"

export const SessionStartLimit = Schema.Struct({
  total: Schema.Int,
  remaining: Schema.Int,
  /** milliseconds */
  reset_after: Schema.Int,
  max_concurrency: Schema.Int
})

export const GatewayBot = Schema.Struct({
  url: Schema.String,
  shards: Schema.Int,
  session_start_limit: SessionStartLimit
})

export class BotGatewayApi extends HttpApiGroup.make("botGateway", { topLevel: true })
  .add(
    HttpApiEndpoint.get("gatewayBot", "/gateway/bot", {
      success: GatewayBot,
      error: OnlyBotsCanUseThisEndpoint
    })
  )
  .middleware(Authorization)
  .annotate(OpenApi.Description, "WebSocket gateway discovery for bots: shards and the session-start budget.") {}
