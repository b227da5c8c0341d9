/**
 * Confirming an e-mail address by link: a letter with a one-day, single-use link goes to the
 * address (a newer letter burns the older link), and following it binds the address to the account,
 * unless another account confirmed the same address first.
 */
import { DeliveryQueue, Snowflake, Spans, Tallies } from "@veche/platform"
import { Context, DateTime, Duration, Effect, Layer, Option, Redacted } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import { LIFETIME } from "./EmailLink.ts"
import { EmailLinksRepo } from "./EmailLinksRepo.ts"
import { LinkInvalid, TemporarilyUnavailable } from "./RegistrationErrors.ts"
import { Tokens } from "./Tokens.ts"
import { WebLinks } from "./WebLinks.ts"

export class EmailConfirmation extends Context.Service<
  EmailConfirmation,
  {
    /** Queues the letter; the previous confirmation link of this user stops working. */
    readonly send: (userId: Snowflake.Snowflake, email: string) => Effect.Effect<void, TemporarilyUnavailable>
    /** Binds the address the link was sent to; answers it. */
    readonly confirm: (token: Redacted.Redacted<string>) => Effect.Effect<string, LinkInvalid>
  }
>()("@veche/auth/EmailConfirmation") {
  static readonly layer: Layer.Layer<
    EmailConfirmation,
    never,
    Tokens | EmailLinksRepo | AccountsRepo | DeliveryQueue.DeliveryQueue | WebLinks | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    EmailConfirmation,
    Effect.gen(function* () {
      const tokens = yield* Tokens
      const links = yield* EmailLinksRepo
      const accounts = yield* AccountsRepo
      const queue = yield* DeliveryQueue.DeliveryQueue
      const tallies = yield* Tallies.Tallies
      const web = yield* WebLinks
      const ids = yield* Snowflake.SnowflakeGenerator

      const send = Spans.fn("EmailConfirmation.send")(function* (userId: Snowflake.Snowflake, email: string) {
        const now = yield* DateTime.now
        const expiresAt = DateTime.add(now, { milliseconds: Duration.toMillis(LIFETIME.bind) })
        const minted = yield* tokens.mint("link")
        const token = Redacted.value(minted.token)
        const link = web.confirmEmail(token)
        yield* links.burnFor(userId, "bind", now)
        yield* links.create({
          id: yield* ids.next,
          purpose: "bind",
          tokenDigest: minted.digest,
          userId,
          email,
          createdAt: now,
          expiresAt,
          usedAt: null
        })
        yield* queue
          .enqueue({
            _tag: "Mail",
            expiresAt,
            letter: {
              to: email,
              kind: "email_verify",
              subject: "Veche: confirm your e-mail address",
              text: `Open this link within a day to confirm your address: ${link}\nIf you did not ask for it, ignore this letter.`,
              link,
              token
            }
          })
          .pipe(Effect.catchTag("DeliveryUnavailable", () => Effect.fail(new TemporarilyUnavailable({ what: "mail" }))))
      })

      const confirm = Spans.fn("EmailConfirmation.confirm")(function* (token: Redacted.Redacted<string>) {
        if (tokens.kindOf(token) !== "link") return yield* new LinkInvalid()
        const used = yield* links.use(yield* tokens.digest(token), "bind", yield* DateTime.now)
        if (Option.isNone(used)) return yield* new LinkInvalid()
        const before = yield* accounts.findByUserId(used.value.userId)
        // The unique index decides: someone who confirmed the address first keeps it.
        yield* accounts
          .bindEmail(used.value.userId, used.value.email)
          .pipe(Effect.catchTag("EmailTaken", () => Effect.fail(new LinkInvalid())))
        // An address bound where there was none adds one to the statistics (a change does not).
        if (Option.exists(before, (account) => account.credentials.email === null)) {
          yield* tallies.gauge("with_email", 1)
        }
        return used.value.email
      })

      return EmailConfirmation.of({ send, confirm })
    })
  )
}
