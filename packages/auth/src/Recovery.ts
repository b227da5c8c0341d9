/**
 * Password recovery by a phone code or an e-mail link. Starting looks the same for every phone and
 * address, known or not (same answer, same work on the request path): the account is looked up and
 * the message queued in the background, and only an owner is ever sent anything. Finishing sets the
 * new password, ends every session, burns the other open recovery codes and links, and starts one
 * new session. It never turns two-factor authentication off, and it does not get around it: with
 * TOTP on, finishing also takes an app or backup code, as login does, so a phone or mailbox alone
 * is not an account.
 */
import { DeliveryQueue, SmsSender, Snowflake, Spans, Tallies } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, DateTime, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { type Account, budgetKey, emailKey, normaliseEmail } from "./Account.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { CODE_TTL, CodeChecks, type Started, started } from "./CodeChecks.ts"
import * as CodeMessages from "./CodeMessages.ts"
import { LIFETIME } from "./EmailLink.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import { Mfa } from "./Mfa.ts"
import type { MfaCodeInvalid, MfaRequired } from "./MfaErrors.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import * as Phone from "./Phone.ts"
import {
  type CaptchaNeeded,
  CodeInvalid,
  countSmsCode,
  countWith,
  LinkInvalid,
  type TemporarilyUnavailable,
  type TooManyAttempts
} from "./RegistrationErrors.ts"
import type { ClientInfo } from "./Session.ts"
import { Sessions, type TokenPair } from "./Sessions.ts"
import type { AccountBlocked } from "./SessionsErrors.ts"
import { Tokens } from "./Tokens.ts"
import { VerificationCodes } from "./VerificationCodes.ts"
import { VerificationsRepo } from "./VerificationsRepo.ts"
import { WebLinks } from "./WebLinks.ts"

type StartError = CaptchaNeeded | TooManyAttempts | TemporarilyUnavailable

/** The account has TOTP on and the second factor was missing, wrong, or its budget is spent. */
type SecondFactorError = MfaRequired | MfaCodeInvalid | TooManyAttempts | TemporarilyUnavailable

export class Recovery extends Context.Service<
  Recovery,
  {
    readonly startByPhone: (request: {
      readonly phone: Phone.PhoneNumber
      readonly captchaToken: string | undefined
      readonly address: string
    }) => Effect.Effect<Started, StartError>
    readonly completeByPhone: (
      request: {
        readonly verificationId: Snowflake.Snowflake
        readonly code: string
        readonly newPassword: Redacted.Redacted<string>
        /** The second factor (app or backup code), due when the account has TOTP on. */
        readonly mfaCode?: string | undefined
      },
      client: ClientInfo
    ) => Effect.Effect<TokenPair, CodeInvalid | AccountBlocked | SecondFactorError>
    readonly startByEmail: (request: {
      readonly email: string
      readonly captchaToken: string | undefined
      readonly address: string
    }) => Effect.Effect<void, StartError>
    readonly completeByEmail: (
      request: {
        readonly token: Redacted.Redacted<string>
        readonly newPassword: Redacted.Redacted<string>
        /** The second factor (app or backup code), due when the account has TOTP on. */
        readonly mfaCode?: string | undefined
      },
      client: ClientInfo
    ) => Effect.Effect<TokenPair, LinkInvalid | AccountBlocked | SecondFactorError>
  }
>()("@veche/auth/Recovery") {
  static readonly layer: Layer.Layer<
    Recovery,
    never,
    | CodeChecks
    | VerificationsRepo
    | VerificationCodes
    | EmailLinksRepo
    | AccountsRepo
    | PasswordHasher
    | Sessions
    | Tokens
    | QuotaLimiter.QuotaLimiter
    | CaptchaGate
    | SmsSender.SmsSender
    | DeliveryQueue.DeliveryQueue
    | WebLinks
    | Snowflake.SnowflakeGenerator
    | Mfa
  > = Layer.effect(
    Recovery,
    Effect.gen(function* () {
      const verifications = yield* VerificationsRepo
      const codes = yield* VerificationCodes
      const links = yield* EmailLinksRepo
      const accounts = yield* AccountsRepo
      const hasher = yield* PasswordHasher
      const sessions = yield* Sessions
      const tokens = yield* Tokens
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const gate = yield* CaptchaGate
      const sms = yield* SmsSender.SmsSender
      const checks = yield* CodeChecks
      const queue = yield* DeliveryQueue.DeliveryQueue
      const tallies = yield* Tallies.Tallies
      const web = yield* WebLinks
      const ids = yield* Snowflake.SnowflakeGenerator
      const mfa = yield* Mfa
      // Background work lives as long as the service: a shutdown interrupts it, nothing leaks.
      const scope: Scope.Scope = yield* Effect.scope

      const count = countWith(quotas)

      /** Runs off the request path; failures are logged (without secrets), never answered. */
      const inBackground = (what: string, effect: Effect.Effect<void, unknown>) =>
        effect.pipe(
          Effect.catchCause((cause) => Effect.logWarning(`recovery: ${what} failed`, cause)),
          Effect.forkIn(scope),
          Effect.asVoid
        )

      const startByPhone = Spans.fn("Recovery.startByPhone")(function* (request: {
        readonly phone: Phone.PhoneNumber
        readonly captchaToken: string | undefined
        readonly address: string
      }) {
        yield* gate.check("recover", request.captchaToken, request.address)
        // The same quotas as registration, counted the same for numbers with and without an account.
        yield* countSmsCode(count, request.phone, request.address)
        // The account is resolved from the phone when the code comes back, so nothing here depends on it.
        const opened = yield* checks.open({ purpose: "recover", target: request.phone, channel: sms.channel })
        yield* inBackground(
          "queueing a recovery SMS",
          Effect.gen(function* () {
            if (Option.isNone(yield* accounts.findByPhone(request.phone))) return
            yield* queue.enqueue(CodeMessages.sms(request.phone, "recover", opened.code, opened.now, CODE_TTL))
          })
        )
        return started(opened.id, request.phone, sms.channel)
      })

      /** The end of every recovery: new password, every session ended, other ways in burned. */
      const finish = Effect.fnUntraced(function* (
        account: Account,
        newPassword: Redacted.Redacted<string>,
        client: ClientInfo
      ) {
        const userId = account.user.id
        yield* sessions.ensureNotBlocked(userId)
        const now = yield* DateTime.now
        const passwordHash = yield* Effect.orDie(hasher.hash(newPassword))
        // Sessions started under the old password are refused from here on, including one a login
        // that checked the old password starts after the endAll below.
        const changedAt = yield* accounts.changePassword(userId, passwordHash, now)
        yield* sessions.endAll(userId)
        if (account.credentials.phone !== null) yield* verifications.invalidateFor(account.credentials.phone, "recover")
        yield* links.burnFor(userId, "recover", now)
        // An address someone asked to bind under the old password is not bound by its link later:
        // it would be a way back in (recovery by e-mail) for whoever knew that password.
        yield* links.burnFor(userId, "bind", now)
        return yield* sessions.start(userId, client, Option.getOrNull(changedAt))
      })

      const completeByPhone = Spans.fn("Recovery.completeByPhone")(function* (
        request: {
          readonly verificationId: Snowflake.Snowflake
          readonly code: string
          readonly newPassword: Redacted.Redacted<string>
          readonly mfaCode?: string | undefined
        },
        client: ClientInfo
      ) {
        const now = yield* DateTime.now
        const digest = yield* codes.digest(request.code)
        // The code is judged before anything about the number is read: until it has proved right,
        // every submission makes the same one statement, so neither the answer nor its time tells
        // whether the number has an account or 2FA (reads first made a wrong code slower for an
        // account, slower still with 2FA, and a burned record could be asked without end).
        // Counted, but held open: a missing second factor (60003) does not use it up, and each
        // wrong one (60008) has cost an attempt of the record and of the 2FA budget.
        const held = yield* verifications.consume(request.verificationId, "recover", digest, now, { hold: true })
        if (held._tag !== "Matched") return yield* new CodeInvalid()
        const account = yield* accounts.findByPhone(Phone.Normalised.make(held.record.target))
        // Nothing to do when TOTP is off; otherwise an app or backup code, as at login.
        if (Option.isSome(account)) yield* mfa.checkLogin(account.value.user.id, request.mfaCode)
        // Used exactly once, also for a number without an account (as a plain consume used it).
        const used = yield* verifications.consumeMatched(request.verificationId, "recover", digest, now)
        if (used._tag !== "Consumed" || Option.isNone(account)) return yield* new CodeInvalid()
        return yield* finish(account.value, request.newPassword, client)
      })

      const startByEmail = Spans.fn("Recovery.startByEmail")(function* (request: {
        readonly email: string
        readonly captchaToken: string | undefined
        readonly address: string
      }) {
        yield* gate.check("recover", request.captchaToken, request.address)
        yield* count("recoverEmailPerAddress", request.address)
        const email = normaliseEmail(request.email)
        yield* count("recoverEmailPerEmail", budgetKey(email))
        // Counted for every address, as a phone start is for every number (the funnel's recoveries).
        yield* tallies.count("recoveries_started", yield* DateTime.now)
        yield* inBackground(
          "queueing a recovery letter",
          Effect.gen(function* () {
            const account = yield* accounts.findByEmail(email)
            // Only to a confirmed address of an owner.
            if (Option.isNone(account) || !account.value.credentials.emailVerified) return
            const { user, credentials } = account.value
            const to = credentials.email ?? email
            const now = yield* DateTime.now
            const expiresAt = DateTime.add(now, { milliseconds: Duration.toMillis(LIFETIME.recover) })
            const minted = yield* tokens.mint("link")
            const token = Redacted.value(minted.token)
            const link = web.resetPassword(token)
            yield* links.create({
              id: yield* ids.next,
              purpose: "recover",
              tokenDigest: minted.digest,
              userId: user.id,
              email: to,
              createdAt: now,
              expiresAt,
              usedAt: null
            })
            yield* queue.enqueue({
              _tag: "Mail",
              expiresAt,
              letter: {
                to,
                kind: "email_recover",
                subject: "Veche: set a new password",
                text: `Open this link within an hour to set a new password: ${link}\nIf you did not ask for it, ignore this letter; your password stays as it is.`,
                link,
                token
              }
            })
          })
        )
      })

      const completeByEmail = Spans.fn("Recovery.completeByEmail")(function* (
        request: {
          readonly token: Redacted.Redacted<string>
          readonly newPassword: Redacted.Redacted<string>
          readonly mfaCode?: string | undefined
        },
        client: ClientInfo
      ) {
        if (tokens.kindOf(request.token) !== "link") return yield* new LinkInvalid()
        const digest = yield* tokens.digest(request.token)
        const now = yield* DateTime.now
        // Looked at first, used last: a missing or wrong second factor leaves the link working.
        const link = yield* links.find(digest, "recover", now)
        if (Option.isNone(link)) return yield* new LinkInvalid()
        const account = yield* accounts.findByUserId(link.value.userId)
        // Valid only while the address is still this account's confirmed address.
        const bound =
          Option.isSome(account) &&
          account.value.credentials.emailVerified &&
          account.value.credentials.email !== null &&
          emailKey(account.value.credentials.email) === emailKey(link.value.email)
        if (!bound || Option.isNone(account)) {
          // Spent as before, so binding the address again later does not revive it.
          yield* links.use(digest, "recover", now)
          return yield* new LinkInvalid()
        }
        // With TOTP on, the app or backup code, on the account's 2FA failure budget: the link
        // cannot be used to guess codes past it.
        yield* mfa.checkLogin(account.value.user.id, request.mfaCode)
        if (Option.isNone(yield* links.use(digest, "recover", now))) return yield* new LinkInvalid()
        return yield* finish(account.value, request.newPassword, client)
      })

      return Recovery.of({ startByPhone, completeByPhone, startByEmail, completeByEmail })
    })
  )
}
