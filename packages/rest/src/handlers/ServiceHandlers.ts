/** Handlers of the Service group. */
import { RestApi } from "@veche/api"
import { ServiceInfo } from "@veche/platform"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { GatewayUrl } from "../GatewayUrl.ts"
import type * as GroupLayer from "./GroupLayer.ts"

/**
 * What the group's endpoints answer, by endpoint: synchronous and pure, so the edge can answer them
 * from a compiled form too (`CompiledAnswers`) with the very functions the handlers call.
 */
export const answers = Effect.gen(function* () {
  const info = yield* ServiceInfo.ServiceInfo
  const gateway = yield* GatewayUrl
  const version = { version: info.version, api: 1 as const, env: info.env }
  return {
    version: () => version,
    // read at each request: a host listening on PORT=0 learns its URL after the routes are built
    gateway: () => ({ url: gateway.url })
  }
})

export const layer: GroupLayer.Public<"service", GatewayUrl | ServiceInfo.ServiceInfo> = HttpApiBuilder.group(
  RestApi.RestApi,
  "service",
  (handlers) =>
    Effect.map(answers, (answer) =>
      handlers
        .handle("version", () => Effect.succeed(answer.version()))
        .handle("gateway", () => Effect.succeed(answer.gateway()))
    )
)
