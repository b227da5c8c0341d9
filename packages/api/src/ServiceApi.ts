/**
 * The Service group: build version and gateway discovery, for anyone. Pure data, shared by server
 * and clients. A bot's gateway discovery (`GET /gateway/bot`) takes credentials: `BotGatewayApi`.
 */
import * as ServiceInfo from "@veche/platform/ServiceInfo"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export const Version = Schema.Struct({
  version: Schema.String,
  api: Schema.Literal(1),
  env: Schema.Literals(ServiceInfo.ENVIRONMENTS)
})

export const Gateway = Schema.Struct({ url: Schema.String })

export class ServiceApi extends HttpApiGroup.make("service", { topLevel: true })
  .add(
    HttpApiEndpoint.get("version", "/version", { success: Version }),
    HttpApiEndpoint.get("gateway", "/gateway", { success: Gateway })
  )
  .annotate(OpenApi.Description, "Build version and WebSocket gateway discovery.") {}
