/** Handlers of the dev-only group. */
import { RestApi } from "@veche/api"
import { NotFound } from "@veche/errors"
import { DeliveryQueue, DevOutbox, ServiceInfo } from "@veche/platform"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import type * as GroupLayer from "./GroupLayer.ts"

export const layer: GroupLayer.Public<
  "dev",
  ServiceInfo.ServiceInfo | DeliveryQueue.DeliveryQueue | DevOutbox.DevOutbox
> = HttpApiBuilder.group(RestApi.RestApi, "dev", (handlers) =>
  Effect.gen(function* () {
    const info = yield* ServiceInfo.ServiceInfo
    const outbox = yield* DevOutbox.DevOutbox
    const queue = yield* DeliveryQueue.DeliveryQueue
    // Messages are queued, not sent, on the request path: what is due is sent before the listing,
    // so a client that reads the outbox right after asking for a code finds it.
    const list = (to: string | undefined) =>
      Effect.andThen(
        queue.flush,
        Effect.map(outbox.list(to), (messages) => ({ messages }))
      )
    return handlers.handle("outbox", ({ query }) => (info.env === "dev" ? list(query.to) : Effect.fail(new NotFound())))
  })
)
