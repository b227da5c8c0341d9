/**
 * Registration by phone: a code goes to the number (counted against the SMS quotas before anything
 * is sent, with a captcha after the first attempt from an address), then the code, username,
 * password and birth date create the account and its first session.
 */
import { SmsSender, Snowflake } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { UsersErrors, UsersRepo } from "@veche/users"
import { Context, DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { PhoneTaken } from "./AccountsErrors.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import * as Phone from "./Phone.ts"
import {
  type CaptchaNeeded,
  CodeInvalid,
  fromQuota,
  TemporarilyUnavailable,
  type TooManyAttempts
} from "./RegistrationErrors.ts"
import type { ClientInfo } from "./Session.ts"
import { Sessions, type TokenPair } from "./Sessions.ts"
import { DEFAULT_MAX_ATTEMPTS } from "./Verification.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

/** How long a registration code is valid (the answer's `expires_in`). */
export const CODE_TTL = Duration.minutes(5)

export interface Started {
  readonly verificationId: Snowflake.Snowflake
  readonly expiresIn: number
  readonly maskedPhone: string
  readonly channel: "sms" | "messenger" | "console"
}

export interface Completion {
  readonly verificationId: Snowflake.Snowflake
  readonly code: string
  readonly username: string
  readonly displayName: string | null
  readonly password: Redacted.Redacted<string>
  readonly dateOfBirth: string
}

export class Registration extends Context.Service<
  Registration,
  {
    readonly startByPhone: (request: {
      readonly phone: Phone.PhoneNumber
      readonly captchaToken: string | undefined
      readonly address: string
    }) => Effect.Effect<Started, CaptchaNeeded | TooManyAttempts | TemporarilyUnavailable>
    readonly complete: (
      request: Completion,
      client: ClientInfo
    ) => Effect.Effect<TokenPair, CodeInvalid | UsersErrors.UsernameTaken | PhoneTaken>
  }
>()("@veche/auth/Registration") {
  static readonly layer: Layer.Layer<
    Registration,
    never,
    | VerificationsRepo
    | VerificationCodes
    | AccountsRepo
    | UsersRepo.UsersRepo
    | PasswordHasher
    | Sessions
    | QuotaLimiter.QuotaLimiter
    | CaptchaGate
    | SmsSender.SmsSender
    | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    Registration,
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const accounts = yield* AccountsRepo
      const users = yield* UsersRepo.UsersRepo
      const hasher = yield* PasswordHasher
      const sessions = yield* Sessions
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const gate = yield* CaptchaGate
      const sms = yield* SmsSender.SmsSender
      const ids = yield* Snowflake.SnowflakeGenerator

      const count = (quota: Parameters<typeof quotas.consume>[0], key: string) =>
        quotas.consume(quota, key).pipe(Effect.catchTags(fromQuota))

      const startByPhone = Effect.fn("Registration.startByPhone")(function* (request: {
        readonly phone: Phone.PhoneNumber
        readonly captchaToken: string | undefined
        readonly address: string
      }) {
        yield* gate.check("register", request.captchaToken, request.address)
        // Counted before sending, the same for numbers with and without an account.
        yield* count("smsPerPhone", request.phone)
        yield* count("smsPerAddress", request.address)
        yield* count("smsGlobal", "all")
        const issued = yield* codes.issue(6)
        const delivery = yield* sms
          .send({
            to: request.phone,
            kind: "register",
            code: Redacted.value(issued.code),
            text: `Veche: your code is ${Redacted.value(issued.code)}. Do not share it with anyone.`,
            ttl: CODE_TTL
          })
          .pipe(Effect.catch(() => Effect.fail(new TemporarilyUnavailable({ what: "sms" }))))
        // An earlier code for this number stops working once a new one is out.
        yield* verifications.invalidateFor(request.phone, "register")
        const now = yield* DateTime.now
        const id = yield* ids.next
        yield* Effect.orDie(
          verifications.create({
            id,
            purpose: "register",
            target: request.phone,
            channel: delivery.channel,
            codeDigest: issued.digest,
            codeLength: 6,
            status: "needs_code",
            attempts: 0,
            maxAttempts: DEFAULT_MAX_ATTEMPTS,
            createdAt: now,
            expiresAt: DateTime.add(now, { milliseconds: Duration.toMillis(CODE_TTL) }),
            consumedAt: null,
            userId: null,
            smsSwitched: false
          })
        )
        return {
          verificationId: id,
          expiresIn: Math.floor(Duration.toSeconds(CODE_TTL)),
          maskedPhone: Phone.mask(request.phone),
          channel: delivery.channel
        } satisfies Started
      })

      const complete = Effect.fn("Registration.complete")(function* (request: Completion, client: ClientInfo) {
        const now = yield* DateTime.now
        const record = yield* verifications.find(request.verificationId, "register", now)
        if (Option.isNone(record) || record.value.consumedAt !== null) return yield* new CodeInvalid()
        const phone = Phone.Normalised.make(record.value.target)
        // Refuse before spending the code when the name or number is already taken, so a typo in
        // the username does not cost a new SMS (the store still settles races below).
        if (Option.isSome(yield* users.findByUsername(request.username))) {
          return yield* new UsersErrors.UsernameTaken({ username: request.username })
        }
        if (Option.isSome(yield* accounts.findByPhone(phone))) return yield* new PhoneTaken()
        const consumed = yield* verifications.consume(
          request.verificationId,
          "register",
          yield* codes.digest(request.code),
          now
        )
        if (consumed._tag !== "Consumed") return yield* new CodeInvalid()
        const passwordHash = yield* Effect.orDie(hasher.hash(request.password))
        const userId = yield* ids.next
        yield* accounts
          .register({
            user: { id: userId, username: request.username, displayName: request.displayName, createdAt: now },
            credentials: {
              userId,
              phone,
              email: null,
              emailVerified: false,
              passwordHash,
              dateOfBirth: request.dateOfBirth,
              createdAt: now
            }
          })
          .pipe(Effect.catchTag("EmailTaken", Effect.die))
        return yield* sessions.start(userId, client)
      })

      return Registration.of({ startByPhone, complete })
    })
  )
}
