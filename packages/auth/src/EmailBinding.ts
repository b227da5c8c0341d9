/**
 * A signed-in user's e-mail address: adding one (password, then a confirmation link; the address
 * is pending until the link is followed), sending the link again (the previous one stops working),
 * and removing the address (password; every link burned, so recovery by e-mail ends). Letters are
 * limited: one request a minute per user, 5 letters per address and 5 per user an hour. The limits
 * are counted before the address is looked up, for taken and free addresses alike, so that once
 * they run out both answer 429 (not "taken" for one and 429 for the other: a registration oracle).
 */
import { type Snowflake, Spans, Tallies } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Context, DateTime, Effect, Layer, Option, type Redacted, Schema } from "effect"
import { budgetKey, normaliseEmail } from "./Account.ts"
import { EmailTaken } from "./AccountsErrors.ts"
import { AccountsRepo } from "./AccountsRepo.ts"
import { EmailConfirmation } from "./EmailConfirmation.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import type { PasswordMismatch } from "./MfaErrors.ts"
import { PasswordCheck } from "./PasswordCheck.ts"
import { countWith, type TemporarilyUnavailable, type TooManyAttempts } from "./RegistrationErrors.ts"

/** Resend with no address awaiting confirmation (400). */
export class NothingPending extends Schema.TaggedError<NothingPending>()("NothingPending", {}) {}

type Refusal = PasswordMismatch | TooManyAttempts | TemporarilyUnavailable

export class EmailBinding extends Context.Service<
  EmailBinding,
  {
    /** The address awaiting confirmation, if any. */
    readonly pending: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<string>>
    readonly add: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
      readonly email: string
    }) => Effect.Effect<void, Refusal | EmailTaken>
    readonly resend: (
      userId: Snowflake.Snowflake
    ) => Effect.Effect<void, NothingPending | TooManyAttempts | TemporarilyUnavailable>
    readonly remove: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
    }) => Effect.Effect<void, Refusal>
  }
>()("@veche/auth/EmailBinding") {
  static readonly layer: Layer.Layer<
    EmailBinding,
    never,
    AccountsRepo | EmailLinksRepo | EmailConfirmation | PasswordCheck | QuotaLimiter.QuotaLimiter
  > = Layer.effect(
    EmailBinding,
    Effect.gen(function* () {
      const accounts = yield* AccountsRepo
      const links = yield* EmailLinksRepo
      const confirmation = yield* EmailConfirmation
      const passwords = yield* PasswordCheck
      const tallies = yield* Tallies.Tallies
      const quotas = yield* QuotaLimiter.QuotaLimiter

      const count = countWith(quotas)

      /** The three letter limits, counted before the address is looked up or a letter queued. */
      const countLetter = Effect.fnUntraced(function* (userId: Snowflake.Snowflake, email: string) {
        yield* count("emailRequestPerUser", userId)
        yield* count("emailLettersPerAddress", budgetKey(email))
        yield* count("emailLettersPerUser", userId)
      })

      const pending = (userId: Snowflake.Snowflake) =>
        Effect.flatMap(DateTime.now, (now) =>
          Effect.map(
            links.newestOpen(userId, "bind", now),
            Option.map((link) => link.email)
          )
        )

      const add = Spans.fn("EmailBinding.add")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
        readonly email: string
      }) {
        yield* passwords.verify(request.userId, request.password)
        const email = normaliseEmail(request.email)
        yield* countLetter(request.userId, email)
        const holder = yield* accounts.findByEmail(email)
        if (Option.isSome(holder) && holder.value.user.id !== request.userId) return yield* new EmailTaken()
        yield* confirmation.send(request.userId, email)
      })

      const resend = Spans.fn("EmailBinding.resend")(function* (userId: Snowflake.Snowflake) {
        const address = yield* pending(userId)
        if (Option.isNone(address)) return yield* new NothingPending()
        yield* countLetter(userId, address.value)
        yield* confirmation.send(userId, address.value)
      })

      const remove = Spans.fn("EmailBinding.remove")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
      }) {
        yield* passwords.verify(request.userId, request.password)
        const now = yield* DateTime.now
        const before = yield* accounts.findByUserId(request.userId)
        yield* accounts.unbindEmail(request.userId)
        if (Option.exists(before, (account) => account.credentials.email !== null)) {
          yield* tallies.gauge("with_email", -1)
        }
        yield* links.burnFor(request.userId, "bind", now)
        yield* links.burnFor(request.userId, "recover", now)
      })

      return EmailBinding.of({ pending, add, resend, remove })
    })
  )
}
