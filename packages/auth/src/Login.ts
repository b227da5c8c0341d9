/**
 * Login with a phone or an e-mail and a password. Unknown accounts and wrong passwords are
 * indistinguishable: same error, and a dummy hash verify so they cost the same time. Failures are
 * counted per account and per address (past the limit: 429 until the window passes — never a
 * lockout that outlives it), and a captcha is due after the first attempt from an address.
 */
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { type Account, normaliseEmail } from "./Account.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { CaptchaGate } from "./CaptchaGate.ts"
import { Mfa } from "./Mfa.ts"
import type { MfaCodeInvalid, MfaRequired } from "./MfaErrors.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import * as Phone from "./Phone.ts"
import {
  type CaptchaNeeded,
  fromQuota,
  type TemporarilyUnavailable,
  type TooManyAttempts
} from "./RegistrationErrors.ts"
import type { ClientInfo } from "./Session.ts"
import { Sessions, type TokenPair } from "./Sessions.ts"
import type { AccountBlocked } from "./SessionsErrors.ts"

/** Unknown account or wrong password: deliberately the same (401 50014). */
export class BadCredentials extends Schema.TaggedError<BadCredentials>()("BadCredentials", {}) {}

export interface LoginRequest {
  /** A phone in any accepted spelling, or an e-mail address. */
  readonly login: string
  readonly password: Redacted.Redacted<string>
  /** The second factor (an app code or a backup code), when the account has 2FA on. */
  readonly code?: string | undefined
  readonly captchaToken: string | undefined
  readonly address: string
}

export class Login extends Context.Service<
  Login,
  {
    readonly login: (
      request: LoginRequest,
      client: ClientInfo
    ) => Effect.Effect<
      TokenPair,
      | BadCredentials
      | CaptchaNeeded
      | TooManyAttempts
      | TemporarilyUnavailable
      | MfaRequired
      | MfaCodeInvalid
      | AccountBlocked
    >
  }
>()("@veche/auth/Login") {
  static readonly layer: Layer.Layer<
    Login,
    never,
    AccountsRepo | PasswordHasher | Sessions | QuotaLimiter.QuotaLimiter | CaptchaGate | Mfa
  > = Layer.effect(
    Login,
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const hasher = yield* PasswordHasher
      const sessions = yield* Sessions
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const gate = yield* CaptchaGate
      const mfa = yield* Mfa

      /** The identity a login names, normalised (the quota key), and how to look its account up. */
      const identify = (
        login: string
      ): { readonly key: string; readonly lookup: Effect.Effect<Option.Option<Account>> } => {
        const phone = Phone.normalise(login)
        if (Option.isSome(phone)) return { key: phone.value, lookup: accounts.findByPhone(phone.value) }
        const email = normaliseEmail(login)
        return { key: email.toLowerCase(), lookup: accounts.findByEmail(email) }
      }

      const login = Effect.fn("Login.login")(function* (request: LoginRequest, client: ClientInfo) {
        yield* gate.check("login", request.captchaToken, request.address)
        const { key, lookup } = identify(request.login)
        // Refused before any lookup or hashing while the failure budget is spent, known account or not.
        yield* quotas.check("failedLoginsPerAccount", key).pipe(Effect.catchTags(fromQuota))
        yield* quotas.check("failedLoginsPerAddress", request.address).pipe(Effect.catchTags(fromQuota))
        const account = yield* lookup
        const verdict = yield* Option.match(account, {
          onNone: () => hasher.verifyDummy(request.password),
          onSome: (found) => hasher.verify(found.credentials.passwordHash, request.password)
        }).pipe(Effect.orElseSucceed(() => ({ valid: false, needsRehash: false })))
        if (Option.isNone(account) || !verdict.valid) {
          yield* quotas.consume("failedLoginsPerAccount", key).pipe(Effect.ignore)
          yield* quotas.consume("failedLoginsPerAddress", request.address).pipe(Effect.ignore)
          return yield* new BadCredentials()
        }
        const user = account.value.user
        // Only after the password: a wrong password must not reveal a block or whether 2FA is on.
        yield* sessions.ensureNotBlocked(user.id)
        yield* mfa.checkLogin(user.id, request.code)
        const checked = account.value.credentials
        if (verdict.needsRehash) {
          const fresh = yield* Effect.orDie(hasher.hash(request.password))
          // Only over the hash just checked: a recovery may have set a new password meanwhile.
          yield* accounts.rehashPassword(user.id, checked.passwordHash, fresh)
        }
        // Under the password just checked: if a recovery changed it meanwhile, this session is refused.
        return yield* sessions.start(user.id, client, checked.passwordChangedAt)
      })

      return Login.of({ login })
    })
  )
}
