/**
 * The dev outbox: every message a dev adapter "sends" (the console SMS sender, the console mailer) is
 * kept here, newest last, so a person at a dev server or a test can read the code or link back
 * (`GET /dev/outbox?to=`, mounted only when `SERVICE_ENV=dev`). Nothing recorded here leaves the process.
 */
import { Clock, Context, Effect, Layer, Ref, Schema } from "effect"

/** Why a message was sent; the accounts flows name them, the outbox and the API report them. */
export const MessageKind = Schema.Literals(["register", "recover", "change_phone", "email_verify", "email_recover"])
export type MessageKind = typeof MessageKind.Type

/** How a message travelled: the SMS channels (`sms`, `messenger`, `console`) and e-mail. */
export const Channel = Schema.Literals(["sms", "messenger", "console", "email", "mobileid"])
export type Channel = typeof Channel.Type

/** One recorded message, exactly as `GET /dev/outbox` lists it; `at` is an ISO 8601 instant. */
export const OutboxMessage = Schema.Struct({
  to: Schema.String,
  channel: Channel,
  kind: MessageKind,
  code: Schema.optionalKey(Schema.String),
  link: Schema.optionalKey(Schema.String),
  token: Schema.optionalKey(Schema.String),
  text: Schema.String,
  at: Schema.String
})
export type OutboxMessage = typeof OutboxMessage.Type

/** A message as an adapter hands it over; the outbox stamps `at` from the `Clock`. */
export type Draft = Omit<OutboxMessage, "at">

/**
 * A dev server can run for weeks: keep the newest messages only, so the outbox cannot grow without
 * bound. A thousand is far more than any person or test reads back.
 */
export const DEFAULT_CAPACITY = 1000

export class DevOutbox extends Context.Service<
  DevOutbox,
  {
    /** Stores a message and returns it as recorded. */
    readonly record: (message: Draft) => Effect.Effect<OutboxMessage>
    /** Every kept message, newest last; with `to`, only those sent to that phone or address. */
    readonly list: (to?: string) => Effect.Effect<ReadonlyArray<OutboxMessage>>
  }
>()("@veche/platform/DevOutbox") {
  static readonly make = (options?: { readonly capacity?: number | undefined }): Effect.Effect<DevOutbox["Service"]> =>
    Effect.gen(function* () {
      const capacity = Math.max(1, options?.capacity ?? DEFAULT_CAPACITY)
      const messages = yield* Ref.make<ReadonlyArray<OutboxMessage>>([])
      const record = Effect.fn("DevOutbox.record")(function* (draft: Draft) {
        const now = yield* Clock.currentTimeMillis
        const message: OutboxMessage = { ...draft, at: new Date(now).toISOString() }
        yield* Ref.update(messages, (all) => [...all, message].slice(-capacity))
        return message
      })
      const list = Effect.fn("DevOutbox.list")(function* (to?: string) {
        const all = yield* Ref.get(messages)
        return to === undefined ? all : all.filter((message) => message.to === to)
      })
      return DevOutbox.of({ record, list })
    })

  /** An outbox keeping up to `capacity` messages (default `DEFAULT_CAPACITY`). */
  static readonly layer = (options?: { readonly capacity?: number | undefined }): Layer.Layer<DevOutbox> =>
    Layer.effect(DevOutbox, DevOutbox.make(options))

  static readonly layerMemory: Layer.Layer<DevOutbox> = DevOutbox.layer()
}
