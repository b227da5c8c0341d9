/**
 * Moving a signed-in account to a new number: the password, then a 6-digit code to the new number
 * (the same 3-per-hour SMS quota as registration and recovery), then the code. A number that
 * already has an account is refused before anything is sent (409), and again when the change is
 * made (the store settles races). The SMS quotas are counted before that lookup, for taken and free
 * numbers alike: otherwise, once they ran out, a taken number would still answer 409 and a free one
 * 429, telling whoever asks which numbers are registered, without limit.
 */
import { SmsSender, type Snowflake, Spans } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import { PhoneTaken } from "./AccountsErrors.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { CODE_TTL, CodeChecks, type Started, started } from "./CodeChecks.ts"
import * as CodeMessages from "./CodeMessages.ts"
import type { PasswordMismatch } from "./MfaErrors.ts"
import { PasswordCheck } from "./PasswordCheck.ts"
import * as Phone from "./Phone.ts"
import {
  CodeInvalid,
  countSmsCode,
  countWith,
  type TemporarilyUnavailable,
  type TooManyAttempts
} from "./RegistrationErrors.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

export class PhoneChange extends Context.Service<
  PhoneChange,
  {
    readonly start: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
      readonly phone: Phone.PhoneNumber
      readonly address: string
    }) => Effect.Effect<Started, PasswordMismatch | PhoneTaken | TooManyAttempts | TemporarilyUnavailable>
    /** Answers the new number. */
    readonly complete: (request: {
      readonly userId: Snowflake.Snowflake
      readonly verificationId: Snowflake.Snowflake
      readonly code: string
    }) => Effect.Effect<Phone.PhoneNumber, CodeInvalid | PhoneTaken>
  }
>()("@veche/auth/PhoneChange") {
  static readonly layer: Layer.Layer<
    PhoneChange,
    never,
    | CodeChecks
    | PasswordCheck
    | AccountsRepo
    | VerificationsRepo
    | VerificationCodes
    | QuotaLimiter.QuotaLimiter
    | SmsSender.SmsSender
  > = Layer.effect(
    PhoneChange,
    Effect.gen(function* () {
      const passwords = yield* PasswordCheck
      const accounts = yield* AccountsRepo
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const sms = yield* SmsSender.SmsSender
      const checks = yield* CodeChecks

      const count = countWith(quotas)

      const start = Spans.fn("PhoneChange.start")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
        readonly phone: Phone.PhoneNumber
        readonly address: string
      }) {
        yield* passwords.verify(request.userId, request.password)
        yield* countSmsCode(count, request.phone, request.address)
        const holder = yield* accounts.findByPhone(request.phone)
        if (Option.isSome(holder)) return yield* new PhoneTaken()
        const opened = yield* checks.open({
          purpose: "change_phone",
          target: request.phone,
          channel: sms.channel,
          // Bound to the account that asked: nobody else can use this code to take the number.
          userId: request.userId
        })
        yield* checks.send(CodeMessages.sms(request.phone, "change_phone", opened.code, opened.now, CODE_TTL), "sms")
        return started(opened.id, request.phone, sms.channel)
      })

      const complete = Spans.fn("PhoneChange.complete")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly verificationId: Snowflake.Snowflake
        readonly code: string
      }) {
        const now = yield* DateTime.now
        const record = yield* verifications.find(request.verificationId, "change_phone", now)
        // Another account's record looks like a missing one.
        if (Option.isNone(record) || record.value.userId !== request.userId) return yield* new CodeInvalid()
        const consumed = yield* verifications.consume(
          request.verificationId,
          "change_phone",
          yield* codes.digest(request.code),
          now
        )
        if (consumed._tag !== "Consumed") return yield* new CodeInvalid()
        const phone = Phone.Normalised.make(consumed.record.target)
        yield* accounts.setPhone(request.userId, phone)
        return phone
      })

      return PhoneChange.of({ start, complete })
    })
  )
}
