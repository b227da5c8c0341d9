/**
 * Running a carrier check (mobile ID) for a verification record that starts `pending` on channel
 * `mobileid`: off the request path, the carrier rings the number; its code turns the record into
 * `needs_code` with 4 digits. If the carrier refuses or is down, the record moves to the service's
 * own 6-digit SMS code (channel `sms`), under the same attempt counters, exactly once (the
 * record's switch is conditional, shared with `POST /auth/verify/{id}/sms`).
 */
import { CarrierCheck, DeliveryQueue, type DevOutbox, type Snowflake } from "@veche/platform"
import { Context, DateTime, Duration, Effect, Layer, Option, type Scope } from "effect"
import * as CodeMessages from "./CodeMessages.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

export class CarrierChecks extends Context.Service<
  CarrierChecks,
  {
    /** Whether a carrier check is configured (otherwise flows send the SMS code straight away). */
    readonly enabled: boolean
    /** Starts the call for this pending record in the background; the request does not wait. */
    readonly begin: (
      id: Snowflake.Snowflake,
      phone: string,
      kind: DevOutbox.MessageKind,
      ttl: Duration.Duration
    ) => Effect.Effect<void>
  }
>()("@veche/auth/CarrierChecks") {
  static readonly layer: Layer.Layer<
    CarrierChecks,
    never,
    CarrierCheck.CarrierCheck | VerificationsRepo | VerificationCodes | DeliveryQueue.DeliveryQueue
  > = Layer.effect(
    CarrierChecks,
    Effect.gen(function* () {
      const carrier = yield* CarrierCheck.CarrierCheck
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const queue = yield* DeliveryQueue.DeliveryQueue
      const scope: Scope.Scope = yield* Effect.scope

      const fallBackToSms = Effect.fnUntraced(function* (
        id: Snowflake.Snowflake,
        phone: string,
        kind: DevOutbox.MessageKind,
        ttl: Duration.Duration
      ) {
        const issued = yield* codes.issue(6)
        const now = yield* DateTime.now
        const switched = yield* verifications.switchToSms(
          id,
          issued.digest,
          DateTime.add(now, { milliseconds: Duration.toMillis(ttl) })
        )
        // Already switched (the person asked for the SMS meanwhile): that request sent it.
        if (Option.isSome(switched)) yield* queue.enqueue(CodeMessages.sms(phone, kind, issued.code, now, ttl))
      })

      const run = Effect.fnUntraced(function* (
        id: Snowflake.Snowflake,
        phone: string,
        kind: DevOutbox.MessageKind,
        ttl: Duration.Duration
      ) {
        const called = yield* carrier.call(phone, kind).pipe(
          Effect.map(Option.some),
          Effect.catchTags({
            CarrierRefused: (e) =>
              Effect.as(Effect.logInfo(`carrier check refused (${e.reason}); SMS instead`), Option.none()),
            CarrierUnavailable: (e) =>
              Effect.as(Effect.logWarning(`carrier check unavailable (${e.reason}); SMS instead`), Option.none())
          })
        )
        if (Option.isNone(called)) return yield* fallBackToSms(id, phone, kind, ttl)
        yield* verifications.carrierCodeArrived(id, yield* codes.digest(called.value.code))
      })

      return CarrierChecks.of({
        enabled: carrier.enabled,
        begin: (id, phone, kind, ttl) =>
          run(id, phone, kind, ttl).pipe(
            Effect.catchCause((cause) => Effect.logError("carrier check failed", cause)),
            Effect.forkIn(scope),
            Effect.asVoid
          )
      })
    })
  )
}
