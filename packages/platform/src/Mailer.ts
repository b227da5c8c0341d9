/**
 * The port through which the accounts flows send letters: e-mail confirmation links, recovery links,
 * e-mail registration. A letter names its `kind` and, for the dev outbox, the `link` and `token` it
 * carries; real adapters send only `subject`, `text` and `html`. Links and tokens are secrets: no
 * adapter but the console one (dev only, that is its purpose) may log them.
 *
 * Adapters: `Mailer.layerConsole` here (dev: log + `DevOutbox`), `SmtpMailer` in `@veche/smtp` (nodemailer).
 * A failure to send is `MailUnavailable`; the API answers 503 then.
 */
import { Context, Effect, Layer, Schema } from "effect"
import * as DevOutbox from "./DevOutbox.ts"

export interface Letter {
  /** The recipient's address, normalised by the caller. */
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html?: string | undefined
  readonly kind: DevOutbox.MessageKind
  /** The link the letter carries, if any (recorded by the dev outbox). */
  readonly link?: string | undefined
  /** The token inside that link, if any (recorded by the dev outbox). */
  readonly token?: string | undefined
  /** The code the letter carries (e-mail registration), if any (recorded by the dev outbox). */
  readonly code?: string | undefined
}

/**
 * The letter could not be handed to the mail server. `reason` is safe to log. `permanent` says the
 * server refused this letter for good (an SMTP 5xx, e.g. an unknown mailbox), so a queue should not
 * try it again; otherwise (down, timed out, 4xx) a later attempt may succeed.
 */
export class MailUnavailable extends Schema.TaggedError<MailUnavailable>()("MailUnavailable", {
  provider: Schema.String,
  reason: Schema.String,
  permanent: Schema.Boolean
}) {}

export class Mailer extends Context.Service<
  Mailer,
  { readonly send: (letter: Letter) => Effect.Effect<void, MailUnavailable> }
>()("@veche/platform/Mailer") {
  /** Dev adapter: logs the letter and records it in the `DevOutbox` on channel `email`. */
  static readonly layerConsole: Layer.Layer<Mailer, never, DevOutbox.DevOutbox> = Layer.effect(
    Mailer,
    Effect.gen(function* () {
      const outbox = yield* DevOutbox.DevOutbox
      const send = Effect.fn("ConsoleMailer.send")(function* (letter: Letter) {
        yield* outbox.record({
          to: letter.to,
          channel: "email",
          kind: letter.kind,
          ...(letter.link === undefined ? {} : { link: letter.link }),
          ...(letter.token === undefined ? {} : { token: letter.token }),
          ...(letter.code === undefined ? {} : { code: letter.code }),
          text: letter.text
        })
        yield* Effect.logInfo(`Mail (console) to ${letter.to} [${letter.kind}] "${letter.subject}": ${letter.text}`)
      })
      return Mailer.of({ send })
    })
  )
}
