/** Handlers of the Service group. */
import { RestApi } from "@veche/api"
import { ServiceInfo } from "@veche/platform"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GatewayUrl } from "../GatewayUrl.ts"
import type * as GroupLayer from "./GroupLayer.ts"

export const layer: GroupLayer.Public<"service", GatewayUrl | ServiceInfo.ServiceInfo> = HttpApiBuilder.group(
  RestApi.RestApi,
  "service",
  (handlers) =>
    Effect.gen(function* () {
      const info = yield* ServiceInfo.ServiceInfo
      const gateway = yield* GatewayUrl
      const version = { version: info.version, api: 1 as const, env: info.env }
      return handlers
        .handle("version", () => Effect.succeed(version))
        .handle("gateway", () => Effect.succeed({ url: gateway.url }))
    })
)
