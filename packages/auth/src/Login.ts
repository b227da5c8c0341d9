/**
 * Login with a phone or an e-mail and a password. Unknown accounts and wrong passwords are
 * indistinguishable: same error, and a dummy hash verify so they cost the same time. Each attempt
 * takes its failure units first and gets them back unless the password was wrong. Per address and
 * per account and address the limits are hard (429 until the window passes); per account alone,
 * past the threshold, a captcha is required instead, so no stranger can lock an owner out. A
 * captcha is also due after the first attempt from an address.
 *
 * Attempts in flight hold their units until judged, right passwords included: otherwise parallel
 * guesses could all pass the cap. So more than ten logins at once on one account from one address
 * (or fifty from one address) meet 429 whatever their passwords; that is the cap's price, not a
 * lockout (only the caller's own address is refused; elsewhere the owner at most needs a captcha).
 */
import { Spans } from "@veche/platform"
import { QuotaLimiter, type Quotas } from "@veche/ratelimit"
import { Context, DateTime, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { budgetKey, normaliseEmail } from "./Account.ts"
import { AccountsRepo, type LoginAccount } from "./AccountsRepo.ts"
import * as Block from "./Block.ts"
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
import { AccountBlocked } from "./SessionsErrors.ts"

/** The account's block and TOTP record read with it, when the store can (two statements fewer). */
const WITH_LOGIN_STATE = { withLoginState: true } as const

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
      ): { readonly key: string; readonly lookup: Effect.Effect<Option.Option<LoginAccount>> } => {
        const phone = Phone.normalise(login)
        if (Option.isSome(phone)) {
          return { key: phone.value, lookup: accounts.findByPhone(phone.value, WITH_LOGIN_STATE) }
        }
        const email = normaliseEmail(login)
        // Every spelling the lookup finds this account by counts on one budget.
        return { key: budgetKey(email), lookup: accounts.findByEmail(email, WITH_LOGIN_STATE) }
      }

      /** Refuses a blocked account: from what the lookup read, or else by asking the block port. */
      const ensureNotBlocked = (account: LoginAccount) => {
        const state = account.loginState
        if (state === undefined) return sessions.ensureNotBlocked(account.user.id)
        if (Option.isNone(state.block)) return Effect.void
        const block = state.block.value
        return Effect.flatMap(DateTime.now, (now) =>
          Block.isActive(block, now) ? Effect.fail(new AccountBlocked({ message: Block.describe(block) })) : Effect.void
        )
      }

      /**
       * Takes the failure units this attempt may cost, before anything is looked up or hashed, so
       * parallel guesses cannot all pass a check made before any of them is counted. The hard
       * limits (per address, per account and address) refuse with 429; past the account's own
       * threshold a captcha is required instead, so strangers cannot lock the owner out.
       */
      const takeUnits = Effect.fnUntraced(function* (
        request: LoginRequest,
        key: string,
        taken: Array<readonly [Quotas.Name, string]>
      ) {
        const take = (quota: Quotas.Name, unitKey: string) =>
          Effect.map(quotas.consume(quota, unitKey), () => {
            taken.push([quota, unitKey])
          })
        yield* take("failedLoginsPerAddress", request.address).pipe(Effect.catchTags(fromQuota))
        yield* take("failedLoginsPerAccountAddress", `${key}@${request.address}`).pipe(Effect.catchTags(fromQuota))
        const overThreshold = yield* take("failedLoginsPerAccount", key).pipe(
          Effect.as(false),
          Effect.catchTags({
            QuotaExceeded: () => Effect.succeed(true),
            QuotaUnavailable: fromQuota.QuotaUnavailable
          })
        )
        yield* gate.check("login", request.captchaToken, request.address, { required: overThreshold })
      })

      const attempt = Effect.fnUntraced(function* (
        request: LoginRequest,
        client: ClientInfo,
        taken: Array<readonly [Quotas.Name, string]>
      ) {
        const { key, lookup } = identify(request.login)
        yield* takeUnits(request, key, taken)
        const account = yield* lookup
        const verdict = yield* Option.match(account, {
          onNone: () => hasher.verifyDummy(request.password),
          onSome: (found) => hasher.verify(found.credentials.passwordHash, request.password)
        }).pipe(Effect.orElseSucceed(() => ({ valid: false, needsRehash: false })))
        if (Option.isNone(account) || !verdict.valid) {
          // A failure: the units stay counted.
          taken.length = 0
          return yield* new BadCredentials()
        }
        const user = account.value.user
        // Only after the password: a wrong password must not reveal a block or whether 2FA is on.
        // Both as of the lookup when it read them: the login takes effect as of that moment, as a
        // login just before a block or 2FA's enabling would (neither ends live sessions; a block
        // refuses the session's every request, and a password change, its `passwordChangedAt`).
        yield* ensureNotBlocked(account.value)
        yield* mfa.checkLogin(user.id, request.code, account.value.loginState?.totp)
        const checked = account.value.credentials
        if (verdict.needsRehash) {
          const fresh = yield* Effect.orDie(hasher.hash(request.password))
          // Only over the hash just checked: a recovery may have set a new password meanwhile.
          yield* accounts.rehashPassword(user.id, checked.passwordHash, fresh)
        }
        // Under the password just checked: if a recovery changed it meanwhile, this session is refused.
        return yield* sessions.start(user.id, client, checked.passwordChangedAt)
      })

      const login = Spans.fn("Login.login")(function* (request: LoginRequest, client: ClientInfo) {
        const taken: Array<readonly [Quotas.Name, string]> = []
        // Whatever ends the attempt other than a wrong password gives its units back: a right
        // password (2FA has its own counter), a refusal before the password was judged, an
        // interruption before the verdict (nothing was learnt).
        return yield* attempt(request, client, taken).pipe(
          Effect.ensuring(Effect.suspend(() => Effect.forEach(taken, ([quota, key]) => quotas.giveBack(quota, key))))
        )
      })

      return Login.of({ login })
    })
  )
}
