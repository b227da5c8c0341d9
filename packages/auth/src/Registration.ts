/**
 * Registration by phone: a code goes to the number (counted against the SMS quotas before anything
 * is sent, with a captcha after the first attempt from an address), then the code, username,
 * password and birth date create the account and its first session. Registration by e-mail works
 * the same with a letter, and is offered only outside Russia (the client's address decides).
 */
import { GeoIp, SmsSender, Snowflake, Spans, Tallies } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { PublicUsers, UsersErrors } from "@veche/users"
import { Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import { budgetKey, normaliseEmail } from "./Account.ts"
import { EmailTaken, PhoneTaken } from "./AccountsErrors.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { CarrierChecks } from "./CarrierChecks.ts"
import { CODE_TTL, CodeChecks, expiresIn, type Started, started } from "./CodeChecks.ts"
import * as CodeMessages from "./CodeMessages.ts"
import { EmailConfirmation } from "./EmailConfirmation.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import * as Phone from "./Phone.ts"
import {
  type CaptchaNeeded,
  CodeInvalid,
  countSmsCode,
  countWith,
  EmailRegistrationNotOffered,
  type TemporarilyUnavailable,
  type TooManyAttempts
} from "./RegistrationErrors.ts"
import type { ClientInfo } from "./Session.ts"
import { Sessions, type TokenPair } from "./Sessions.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"

export interface StartedByEmail {
  readonly verificationId: Snowflake.Snowflake
  readonly expiresIn: number
  readonly maskedEmail: string
}

/** `a***@example.org`: enough for the person to recognise the address, not to learn it. */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf("@")
  if (at <= 0) return "***"
  return `${email.slice(0, 1)}***${email.slice(at)}`
}

/** Russia decides which registration methods are offered: phone always, e-mail only outside it. */
export const RUSSIA = "RU"

/** The registration methods offered to a client address. */
export interface Methods {
  readonly phone: true
  readonly email: boolean
  /** The country that narrowed the offer (Russia), or null where everything is offered. */
  readonly country: typeof RUSSIA | null
}

export interface Completion {
  readonly verificationId: Snowflake.Snowflake
  readonly code: string
  readonly username: string
  readonly displayName: string | null
  readonly password: Redacted.Redacted<string>
  readonly dateOfBirth: string
  /** An address to confirm by link after registering (phone registrations only). */
  readonly email?: string | undefined
}

export class Registration extends Context.Service<
  Registration,
  {
    readonly startByPhone: (request: {
      readonly phone: Phone.PhoneNumber
      readonly captchaToken: string | undefined
      readonly address: string
    }) => Effect.Effect<Started, CaptchaNeeded | TooManyAttempts | TemporarilyUnavailable>
    /** The methods offered to a client at this address. */
    readonly methods: (address: string) => Effect.Effect<Methods>
    /** E-mail registration (refused to clients in Russia, before anything else): a code by letter. */
    readonly startByEmail: (request: {
      readonly email: string
      readonly captchaToken: string | undefined
      readonly address: string
    }) => Effect.Effect<
      StartedByEmail,
      EmailRegistrationNotOffered | CaptchaNeeded | TooManyAttempts | TemporarilyUnavailable
    >
    /** Completes a phone or an e-mail registration, whichever the verification id belongs to. */
    readonly complete: (
      request: Completion,
      client: ClientInfo
    ) => Effect.Effect<TokenPair, CodeInvalid | UsersErrors.UsernameTaken | PhoneTaken | EmailTaken>
  }
>()("@veche/auth/Registration") {
  static readonly layer: Layer.Layer<
    Registration,
    never,
    | CodeChecks
    | VerificationsRepo
    | VerificationCodes
    | AccountsRepo
    | PublicUsers.PublicUsers
    | PasswordHasher
    | Sessions
    | QuotaLimiter.QuotaLimiter
    | CaptchaGate
    | SmsSender.SmsSender
    | EmailConfirmation
    | CarrierChecks
    | Snowflake.SnowflakeGenerator
    | GeoIp.GeoIp
  > = Layer.effect(
    Registration,
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const accounts = yield* AccountsRepo
      const tallies = yield* Tallies.Tallies
      const users = yield* PublicUsers.PublicUsers
      const hasher = yield* PasswordHasher
      const sessions = yield* Sessions
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const gate = yield* CaptchaGate
      const sms = yield* SmsSender.SmsSender
      const confirmation = yield* EmailConfirmation
      const carrier = yield* CarrierChecks
      const checks = yield* CodeChecks
      const ids = yield* Snowflake.SnowflakeGenerator
      const geo = yield* GeoIp.GeoIp

      const count = countWith(quotas)

      const startByPhone = Spans.fn("Registration.startByPhone")(function* (request: {
        readonly phone: Phone.PhoneNumber
        readonly captchaToken: string | undefined
        readonly address: string
      }) {
        yield* gate.check("register", request.captchaToken, request.address)
        // Counted before sending, the same for numbers with and without an account.
        yield* countSmsCode(count, request.phone, request.address)
        if (carrier.enabled) {
          // The carrier rings first; until its code arrives the record holds a code nobody has.
          const opened = yield* checks.open({
            purpose: "register",
            target: request.phone,
            channel: "mobileid",
            carrier: true
          })
          yield* carrier.begin(opened.id, request.phone, "register", CODE_TTL)
          // The spec's answer names where the code may come as text; GET /auth/verify/{id} tells
          // the carrier check (channel mobileid, 4 digits) and whether it moved to SMS.
          return started(opened.id, request.phone, sms.channel)
        }
        const opened = yield* checks.open({ purpose: "register", target: request.phone, channel: sms.channel })
        // Queued, not sent: a slow SMS gateway never holds the request.
        yield* checks.send(CodeMessages.sms(request.phone, "register", opened.code, opened.now, CODE_TTL), "sms")
        return started(opened.id, request.phone, sms.channel)
      })

      const inRussia = (address: string) =>
        Effect.map(geo.country(address), (country) => Option.isSome(country) && country.value === RUSSIA)

      const methods = Spans.fn("Registration.methods")(function* (address: string) {
        const russian = yield* inRussia(address)
        return { phone: true, email: !russian, country: russian ? RUSSIA : null } satisfies Methods
      })

      const startByEmail = Spans.fn("Registration.startByEmail")(function* (request: {
        readonly email: string
        readonly captchaToken: string | undefined
        readonly address: string
      }) {
        if (yield* inRussia(request.address)) return yield* new EmailRegistrationNotOffered()
        const email = normaliseEmail(request.email)
        yield* gate.check("register", request.captchaToken, request.address)
        yield* count("emailLettersPerAddress", budgetKey(email))
        yield* count("registrationLettersPerAddress", request.address)
        const opened = yield* checks.open({ purpose: "email_register", target: email, channel: "email" })
        yield* checks.send(CodeMessages.letter(email, opened.code, opened.now, CODE_TTL), "mail")
        return {
          verificationId: opened.id,
          expiresIn: expiresIn(),
          maskedEmail: maskEmail(email)
        } satisfies StartedByEmail
      })

      /** The open registration record with this id, phone or e-mail. */
      const findRecord = Effect.fnUntraced(function* (id: Snowflake.Snowflake, now: DateTime.Utc) {
        const byPhone = yield* verifications.find(id, "register", now)
        return Option.isSome(byPhone) ? byPhone : yield* verifications.find(id, "email_register", now)
      })

      const complete = Spans.fn("Registration.complete")(function* (request: Completion, client: ClientInfo) {
        const now = yield* DateTime.now
        const record = yield* findRecord(request.verificationId, now)
        if (Option.isNone(record) || record.value.consumedAt !== null) return yield* new CodeInvalid()
        const byEmail = record.value.purpose === "email_register"
        const phone = byEmail ? null : Phone.Normalised.make(record.value.target)
        const email = byEmail ? record.value.target : null
        // Refuse before spending the code when the name, number or address is already taken, so a
        // typo in the username does not cost a new code (the store still settles races below).
        if (Option.isSome(yield* users.findByUsername(request.username))) {
          return yield* new UsersErrors.UsernameTaken({ username: request.username })
        }
        if (phone !== null && Option.isSome(yield* accounts.findByPhone(phone))) return yield* new PhoneTaken()
        if (email !== null && Option.isSome(yield* accounts.findByEmail(email))) return yield* new EmailTaken()
        const consumed = yield* verifications.consume(
          request.verificationId,
          record.value.purpose,
          yield* codes.digest(request.code),
          now
        )
        if (consumed._tag !== "Consumed") return yield* new CodeInvalid()
        const passwordHash = yield* Effect.orDie(hasher.hash(request.password))
        const userId = yield* ids.next
        yield* accounts.register({
          user: { id: userId, username: request.username, displayName: request.displayName, createdAt: now },
          credentials: {
            userId,
            phone,
            email,
            // The code that came by letter has just proved the address.
            emailVerified: byEmail,
            passwordHash,
            dateOfBirth: request.dateOfBirth,
            createdAt: now,
            passwordChangedAt: null
          }
        })
        yield* tallies.count("registrations_confirmed", now)
        yield* tallies.count("new_users", now)
        yield* tallies.gauge("users", 1)
        if (email !== null) yield* tallies.gauge("with_email", 1)
        const pair = yield* sessions.start(userId, client)
        if (!byEmail && request.email !== undefined) {
          // The account exists either way: a letter that cannot be queued now is logged, and the
          // person can ask for another from their profile.
          yield* confirmation
            .send(userId, normaliseEmail(request.email))
            .pipe(Effect.catchTag("TemporarilyUnavailable", () => Effect.logWarning("confirmation letter not queued")))
        }
        return pair
      })

      return Registration.of({ startByPhone, methods, startByEmail, complete })
    })
  )
}

export { CODE_TTL, type Started } from "./CodeChecks.ts"
