/**
 * Dev-only routes (architecture.md §6): the outbox of every code, link and letter the dev adapters
 * "sent", so a person or a test can finish a flow without a phone or a mailbox. Outside
 * `SERVICE_ENV=dev` they answer exactly like an unknown route.
 */
import { NotFound } from "@veche/errors"
import * as DevOutbox from "@veche/platform/DevOutbox"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export class DevApi extends HttpApiGroup.make("dev")
  .add(
    HttpApiEndpoint.get("outbox", "/dev/outbox", {
      query: { to: Schema.optionalKey(Schema.String) },
      success: Schema.Struct({ messages: Schema.Array(DevOutbox.OutboxMessage) }),
      error: NotFound
    })
  )
  .annotate(OpenApi.Description, "Dev servers only (SERVICE_ENV=dev): messages the dev adapters recorded.") {}
