/** The Service group: build version, gateway discovery. Pure data, shared by server and clients. */
import { OnlyBotsCanUseThisEndpoint } from "@veche/errors"
import { ServiceInfo } from "@veche/platform"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"

export const Version = Schema.Struct({
  version: Schema.String,
  api: Schema.Literal(1),
  env: Schema.Literals(ServiceInfo.ENVIRONMENTS)
})

export const Gateway = Schema.Struct({ url: Schema.String })

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

export class ServiceApi extends HttpApiGroup.make("service", { topLevel: true })
  .add(
    HttpApiEndpoint.get("version", "/version", { success: Version }),
    HttpApiEndpoint.get("gateway", "/gateway", { success: Gateway }),
    HttpApiEndpoint.get("gatewayBot", "/gateway/bot", {
      success: GatewayBot,
      error: OnlyBotsCanUseThisEndpoint
    }).middleware(Authorization)
  )
  .annotate(OpenApi.Description, "Build version and WebSocket gateway discovery.") {}
