/** Handlers of the dev-only group. */
import { NotFound } from "@veche/errors"
import { DevOutbox, ServiceInfo } from "@veche/platform"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { RestApi } from "../RestApi.ts"

export const layer = HttpApiBuilder.group(RestApi, "dev", (handlers) =>
  Effect.gen(function* () {
    const info = yield* ServiceInfo.ServiceInfo
    const outbox = yield* DevOutbox.DevOutbox
    return handlers.handle("outbox", ({ query }) =>
      info.env === "dev" ? Effect.map(outbox.list(query.to), (messages) => ({ messages })) : Effect.fail(new NotFound())
    )
  })
)
