/**
 * Re-checking a signed-in user's password before a sensitive change (2FA set-up, backup codes,
 * phone or e-mail change, deletion). Each check takes a unit of the account's budget first and gets
 * it back when the password was right; past the budget the answer is 429 until the window passes,
 * so a stolen session cannot guess the password, not even with parallel requests.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, Effect, Layer, Option, type Redacted } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import { PasswordMismatch } from "./MfaErrors.ts"
import { PasswordHasher } from "./PasswordHasher.ts"
import { fromQuota, type TemporarilyUnavailable, type TooManyAttempts } from "./RegistrationErrors.ts"

export class PasswordCheck extends Context.Service<
  PasswordCheck,
  {
    readonly verify: (
      userId: Snowflake.Snowflake,
      password: Redacted.Redacted<string>
    ) => Effect.Effect<void, PasswordMismatch | TooManyAttempts | TemporarilyUnavailable>
  }
>()("@veche/auth/PasswordCheck") {
  static readonly layer: Layer.Layer<PasswordCheck, never, AccountsRepo | PasswordHasher | QuotaLimiter.QuotaLimiter> =
    Layer.effect(
      PasswordCheck,
      Effect.gen(function* () {
        const accounts = yield* AccountsRepo
        const hasher = yield* PasswordHasher
        const quotas = yield* QuotaLimiter.QuotaLimiter
        return PasswordCheck.of({
          verify: Spans.fn("PasswordCheck.verify")(function* (
            userId: Snowflake.Snowflake,
            password: Redacted.Redacted<string>
          ) {
            const key = `user:${userId}`
            // Taken first, given back when right: parallel guesses cannot all pass a prior check.
            yield* quotas.consume("failedPasswordChecksPerAccount", key).pipe(Effect.catchTags(fromQuota))
            const account = yield* accounts.findByUserId(userId)
            const verdict = yield* Option.match(account, {
              onNone: () => hasher.verifyDummy(password),
              onSome: (found) => hasher.verify(found.credentials.passwordHash, password)
            }).pipe(Effect.orElseSucceed(() => ({ valid: false, needsRehash: false })))
            if (Option.isNone(account) || !verdict.valid) return yield* new PasswordMismatch()
            yield* quotas.giveBack("failedPasswordChecksPerAccount", key)
          })
        })
      })
    )
}
