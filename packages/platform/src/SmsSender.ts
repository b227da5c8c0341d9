/**
 * The port through which the accounts flows deliver a verification code to a phone (`+7XXXXXXXXXX`).
 *
 * Providers differ in what they deliver: a text gateway (SMS.ru) sends the `text` as it is, a
 * messenger gateway (Telegram Gateway) sends only the `code` inside its own template. So a message
 * carries both, and the answer names the channel that was used (`sms`, `messenger`, `console`),
 * because the API reports it to the client. `code` and `text` are secrets: no adapter but the
 * console one (dev only, that is its purpose) may log them.
 *
 * Adapters: `SmsSender.layerConsole` here (dev: log + `DevOutbox`), `SmsRuSmsSender`,
 * `TelegramSmsSender`; `SmsSender.fallback` chains several (e.g. Telegram first, then SMS).
 */
import { Context, type Duration, Effect, Layer, Schema } from "effect"
import * as DevOutbox from "./DevOutbox.ts"

/** The channels an SMS-port delivery can take; the API answers one of them. */
export const SmsChannel = Schema.Literals(["sms", "messenger", "console"])
export type SmsChannel = typeof SmsChannel.Type

/** A verification message for one phone. */
export interface VerificationMessage {
  /** E.164 phone, normalised by the caller: `+7XXXXXXXXXX`. */
  readonly to: string
  readonly kind: DevOutbox.MessageKind
  /** The code alone (digits), for messenger gateways that render their own text. */
  readonly code: string
  /** The full text with the code in it, for text gateways. */
  readonly text: string
  /** How long the code is valid; gateways that can drop or refund late messages use it. */
  readonly ttl?: Duration.Duration | undefined
}

/** How a message went out. */
export interface Delivery {
  readonly channel: SmsChannel
  /** The adapter that delivered it (`console`, `smsru`, `telegram`). */
  readonly provider: string
  /** The provider's id for the message, when it gives one. */
  readonly id?: string | undefined
}

/**
 * The provider refused this recipient (an invalid number, no route, not a Telegram user, a stop
 * list). Another channel may still reach the phone; sending again through this one will not.
 */
export class SmsRejected extends Schema.TaggedError<SmsRejected>()("SmsRejected", {
  provider: Schema.String,
  reason: Schema.String
}) {}

/**
 * The provider could not be used: down, slow past the time limit, an unexpected answer, or an
 * account problem (bad credentials, no balance). `reason` is safe to log.
 */
export class SmsUnavailable extends Schema.TaggedError<SmsUnavailable>()("SmsUnavailable", {
  provider: Schema.String,
  reason: Schema.String
}) {}

export type SmsError = SmsRejected | SmsUnavailable

export class SmsSender extends Context.Service<
  SmsSender,
  {
    /**
     * The channel a message takes when this sender's first choice delivers it: what the API tells
     * the client before the (queued) message has gone out.
     */
    readonly channel: SmsChannel
    readonly send: (message: VerificationMessage) => Effect.Effect<Delivery, SmsError>
  }
>()("@veche/platform/SmsSender") {
  /** Dev adapter: logs the message and records it in the `DevOutbox` on channel `console`. */
  static readonly layerConsole: Layer.Layer<SmsSender, never, DevOutbox.DevOutbox> = Layer.effect(
    SmsSender,
    Effect.gen(function* () {
      const outbox = yield* DevOutbox.DevOutbox
      const send = Effect.fn("ConsoleSmsSender.send")(function* (message: VerificationMessage) {
        yield* outbox.record({
          to: message.to,
          channel: "console",
          kind: message.kind,
          code: message.code,
          text: message.text
        })
        yield* Effect.logInfo(`SMS (console) to ${message.to} [${message.kind}]: ${message.text}`)
        return { channel: "console", provider: "console" } satisfies Delivery
      })
      return SmsSender.of({ channel: "console", send })
    })
  )

  /**
   * Tries each sender in order until one delivers; a failure (refused or unavailable) moves on to
   * the next, and the last failure is the answer when none delivers. A timed-out provider may still
   * deliver late, so the phone can get the same code twice: better than no code.
   */
  static readonly fallback = (
    first: SmsSender["Service"],
    ...rest: ReadonlyArray<SmsSender["Service"]>
  ): SmsSender["Service"] =>
    SmsSender.of({
      channel: first.channel,
      send: Effect.fn("SmsSender.fallback")(function* (message: VerificationMessage) {
        let attempt = first.send(message)
        for (const next of rest) {
          attempt = attempt.pipe(
            Effect.tapError((error) =>
              Effect.logWarning(`SMS via ${error.provider} failed (${error._tag}: ${error.reason}); trying the next`)
            ),
            Effect.catch(() => next.send(message))
          )
        }
        return yield* attempt
      })
    })
}
