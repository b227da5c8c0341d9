/**
 * The state of a phone check, for clients that poll it, and the one-time move of a carrier
 * (mobile-ID) check to the service's own SMS code. Reading never uses up an attempt. A missing
 * record, another purpose and an expired one look the same (70003).
 */
import { DeliveryQueue, type Snowflake, Spans } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { CODE_TTL } from "./CodeChecks.ts"
import * as CodeMessages from "./CodeMessages.ts"
import { CodeInvalid, TemporarilyUnavailable, TooManyAttempts } from "./RegistrationErrors.ts"
import type { Channel, Purpose, Status, Verification } from "./Verification.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

export interface CheckState {
  readonly status: Status
  readonly codeLength: number
  readonly channel: Channel
}

const stateOf = (record: Verification): CheckState => ({
  status: record.status,
  codeLength: record.codeLength,
  channel: record.channel
})

const KIND = {
  register: "register",
  recover: "recover",
  change_phone: "change_phone",
  email_register: "register"
} as const

export class PhoneChecks extends Context.Service<
  PhoneChecks,
  {
    readonly state: (id: Snowflake.Snowflake, purpose: Purpose) => Effect.Effect<CheckState, CodeInvalid>
    /** Moves a carrier check to a 6-digit SMS code once; any other call changes nothing and sends nothing. */
    readonly switchToSms: (
      id: Snowflake.Snowflake,
      purpose: Purpose
    ) => Effect.Effect<CheckState, CodeInvalid | TooManyAttempts | TemporarilyUnavailable>
  }
>()("@veche/auth/PhoneChecks") {
  static readonly layer: Layer.Layer<
    PhoneChecks,
    never,
    VerificationsRepo | VerificationCodes | DeliveryQueue.DeliveryQueue | QuotaLimiter.QuotaLimiter
  > = Layer.effect(
    PhoneChecks,
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const queue = yield* DeliveryQueue.DeliveryQueue
      const quotas = yield* QuotaLimiter.QuotaLimiter

      const find = Effect.fnUntraced(function* (id: Snowflake.Snowflake, purpose: Purpose) {
        const record = yield* verifications.find(id, purpose, yield* DateTime.now)
        if (Option.isNone(record)) return yield* new CodeInvalid()
        return record.value
      })

      const switchToSms = Spans.fn("PhoneChecks.switchToSms")(function* (id: Snowflake.Snowflake, purpose: Purpose) {
        const record = yield* find(id, purpose)
        if (record.channel !== "mobileid" || record.smsSwitched || record.consumedAt !== null) return stateOf(record)
        // The SMS counts against the number's quota like any other code.
        yield* quotas.consume("smsPerPhone", record.target).pipe(
          Effect.catchTags({
            QuotaExceeded: (e) => Effect.fail(new TooManyAttempts({ retryAfterMs: e.retryAfterMs })),
            QuotaUnavailable: () => Effect.fail(new TemporarilyUnavailable({ what: "counters" }))
          })
        )
        const issued = yield* codes.issue(6)
        const now = yield* DateTime.now
        const switched = yield* verifications.switchToSms(
          id,
          issued.digest,
          DateTime.add(now, { milliseconds: Duration.toMillis(CODE_TTL) })
        )
        // A concurrent call switched first: it sends the SMS, this one sends nothing.
        if (Option.isNone(switched)) return stateOf(yield* find(id, purpose))
        yield* queue
          .enqueue(CodeMessages.sms(record.target, KIND[purpose], issued.code, now, CODE_TTL))
          .pipe(Effect.catchTag("DeliveryUnavailable", () => Effect.fail(new TemporarilyUnavailable({ what: "sms" }))))
        return stateOf(switched.value)
      })

      return PhoneChecks.of({ state: (id, purpose) => Effect.map(find(id, purpose), stateOf), switchToSms })
    })
  )
}
