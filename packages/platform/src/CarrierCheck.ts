/**
 * The port to a carrier-side phone check ("mobile ID"): the provider rings the number from a number
 * whose last 4 digits are the code (a flash call), so no SMS is needed. Not every number can be
 * reached this way: a refusal sends the check back to the service's own 6-digit SMS code.
 *
 * `enabled` is false for hosts without such a provider (`layerNone`, the default): the flows then
 * go straight to SMS. Adapters: `layerDev` here (records the call in the DevOutbox), and
 * `SmsRuCallCheck` (SMS.ru's flash call, over HTTP).
 */
import { randomInt } from "node:crypto"
import { Context, Effect, Layer, Schema } from "effect"
import * as DevOutbox from "./DevOutbox.ts"

/** The carrier cannot reach this number this way (no route, landline, refused): fall back to SMS. */
export class CarrierRefused extends Schema.TaggedError<CarrierRefused>()("CarrierRefused", {
  provider: Schema.String,
  reason: Schema.String
}) {}

/** The provider cannot be used now (down, slow, account problem): fall back to SMS too. */
export class CarrierUnavailable extends Schema.TaggedError<CarrierUnavailable>()("CarrierUnavailable", {
  provider: Schema.String,
  reason: Schema.String
}) {}

export interface Call {
  /** The 4 digits the person reads from the incoming number: a secret, never logged. */
  readonly code: string
  readonly provider: string
}

export class CarrierCheck extends Context.Service<
  CarrierCheck,
  {
    readonly enabled: boolean
    /** Rings `to` (`+7XXXXXXXXXX`); `kind` is for the dev outbox. */
    readonly call: (to: string, kind: DevOutbox.MessageKind) => Effect.Effect<Call, CarrierRefused | CarrierUnavailable>
  }
>()("@veche/platform/CarrierCheck") {
  /** No carrier check: codes go by SMS only. */
  static readonly layerNone: Layer.Layer<CarrierCheck> = Layer.succeed(
    CarrierCheck,
    CarrierCheck.of({
      enabled: false,
      call: () => Effect.fail(new CarrierRefused({ provider: "none", reason: "no carrier check configured" }))
    })
  )

  /**
   * Dev adapter: "rings" by recording the code in the DevOutbox (channel `mobileid`). Numbers ending
   * in `00` play a carrier that refuses, so the fallback to SMS can be tried by hand.
   */
  static readonly layerDev: Layer.Layer<CarrierCheck, never, DevOutbox.DevOutbox> = Layer.effect(
    CarrierCheck,
    Effect.gen(function* () {
      const outbox = yield* DevOutbox.DevOutbox
      return CarrierCheck.of({
        enabled: true,
        call: Effect.fn("DevCarrierCheck.call")(function* (to: string, kind: DevOutbox.MessageKind) {
          if (to.endsWith("00")) {
            return yield* new CarrierRefused({ provider: "dev", reason: "numbers ending in 00 refuse (dev)" })
          }
          const code = String(randomInt(10_000)).padStart(4, "0")
          yield* outbox.record({
            to,
            channel: "mobileid",
            kind,
            code,
            text: `Incoming call from +7 900 000-${code.slice(0, 2)}-${code.slice(2)}: the code is its last 4 digits.`
          })
          yield* Effect.logInfo(`Carrier check (dev) to ${to} [${kind}]: code ${code}`)
          return { code, provider: "dev" }
        })
      })
    })
  )
}
