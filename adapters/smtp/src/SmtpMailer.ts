/**
 * `Mailer` over SMTP with nodemailer (SMTP is not HTTP, and a maintained library gets its corners
 * right: STARTTLS, AUTH mechanisms, dot-stuffing, MIME, IDN). The server comes from one URL,
 * `smtp://user:pass@host:port` (STARTTLS when offered; port 587 by default) or `smtps://…` (TLS from
 * the first byte; port 465 by default). The URL holds the password, so it is `Redacted` and never
 * logged, and nodemailer's own logger stays off.
 */

import { Mailer } from "@veche/platform"
import { Config, ConfigProvider, Duration, Effect, Layer, Option, Redacted, Schema, type Scope } from "effect"

export const PROVIDER = "smtp"

/**
 * Ten seconds: an SMTP send is several round trips (greeting, EHLO, STARTTLS, AUTH, MAIL, RCPT,
 * DATA), and letters go out from a queue, off the request path.
 */
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.seconds(10)

/** Where and how to connect, as read from an SMTP URL. */
export interface Server {
  readonly host: string
  readonly port: number
  /** TLS from the first byte (`smtps://`); otherwise STARTTLS when the server offers it. */
  readonly secure: boolean
  readonly user?: string | undefined
  readonly password?: Redacted.Redacted<string> | undefined
}

export interface Options {
  readonly server: Server
  /** The `From` of every letter, e.g. `Veche <no-reply@example.org>`. */
  readonly from: string
  readonly timeout?: Duration.Duration | undefined
}

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host)

/** Reads `smtp://user:pass@host:port` or `smtps://…`; user and password are percent-decoded. */
export const parseUrl = (url: Redacted.Redacted<string>): Option.Option<Server> => {
  const parsed = URL.parse(Redacted.value(url))
  if (parsed === null || (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") || parsed.hostname === "") {
    return Option.none()
  }
  const secure = parsed.protocol === "smtps:"
  const port = parsed.port === "" ? (secure ? 465 : 587) : Number(parsed.port)
  const user = parsed.username === "" ? undefined : decodeURIComponent(parsed.username)
  const password = parsed.password === "" ? undefined : Redacted.make(decodeURIComponent(parsed.password))
  return Option.some({ host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"), port, secure, user, password })
}

// What nodemailer attaches to its errors; read through a Schema rather than trusted.
const SmtpErrorFields = Schema.Struct({
  code: Schema.optionalKey(Schema.String),
  responseCode: Schema.optionalKey(Schema.Number),
  permanent: Schema.optionalKey(Schema.Boolean)
})
const readSmtpError = Schema.decodeUnknownOption(SmtpErrorFields)

/** Only the error code and the SMTP reply code: the server's reply text may quote the letter. */
const toUnavailable = (error: unknown): Mailer.MailUnavailable => {
  const fields = Option.getOrElse(readSmtpError(error), () => ({}) as typeof SmtpErrorFields.Type)
  const parts = [fields.code, fields.responseCode].filter((part) => part !== undefined)
  return new Mailer.MailUnavailable({
    provider: PROVIDER,
    reason: parts.length === 0 ? "SMTP send failed" : `SMTP ${parts.join(" ")}`,
    permanent: fields.permanent === true
  })
}

/** The transport lives as long as the scope (the layer); closing the scope closes it. */
export const make = (options: Options): Effect.Effect<Mailer.Mailer["Service"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const { server } = options
    const timeout = options.timeout ?? DEFAULT_TIMEOUT
    const timeoutMs = Duration.toMillis(timeout)
    // nodemailer (40 modules, 0.6 MB of source) loads when an SMTP mailer is made, at startup with
    // SERVICE_MAIL_PROVIDER=smtp, not in every server that only might send letters.
    const { createTransport } = yield* Effect.promise(() => import("nodemailer"))
    const transport = yield* Effect.acquireRelease(
      Effect.sync(() =>
        createTransport({
          host: server.host,
          port: server.port,
          secure: server.secure,
          // Credentials never cross a network in clear: with a password, a server that is not on
          // this machine must upgrade with STARTTLS (or be smtps://), else sending fails.
          requireTLS: !server.secure && server.password !== undefined && !isLoopback(server.host),
          ...(server.user === undefined
            ? {}
            : {
                auth: { user: server.user, pass: server.password === undefined ? "" : Redacted.value(server.password) }
              }),
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
          dnsTimeout: timeoutMs,
          logger: false,
          debug: false
        })
      ),
      (transport) => Effect.sync(() => transport.close())
    )

    const send = Effect.fn("SmtpMailer.send")(function* (letter: Mailer.Letter) {
      yield* Effect.tryPromise({
        try: () =>
          transport.sendMail({
            from: options.from,
            to: letter.to,
            subject: letter.subject,
            text: letter.text,
            ...(letter.html === undefined ? {} : { html: letter.html })
          }),
        catch: toUnavailable
      }).pipe(
        // nodemailer's socket timeouts end a stalled exchange; this bounds the whole send as well.
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () =>
            Effect.fail(
              new Mailer.MailUnavailable({
                provider: PROVIDER,
                reason: `timed out after ${Duration.format(timeout)}`,
                permanent: false
              })
            )
        })
      )
    })

    return Mailer.Mailer.of({ send })
  })

export const layer = (options: Options): Layer.Layer<Mailer.Mailer> => Layer.effect(Mailer.Mailer, make(options))

const invalidUrl = new Config.ConfigError(
  new ConfigProvider.SourceError({ message: "SMTP_URL must be smtp://user:pass@host:port or smtps://…" })
)

/**
 * `SMTP_URL` (secret, required), `MAIL_FROM` (required), `SERVICE_MAIL_TIMEOUT` (default 10 seconds).
 * A malformed `SMTP_URL` fails the layer without echoing it (it holds the password).
 */
export const layerConfig: Layer.Layer<Mailer.Mailer, Config.ConfigError> = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* Config.Redacted("SMTP_URL")
    const server = yield* Option.match(parseUrl(url), {
      onNone: () => Effect.fail(invalidUrl),
      onSome: Effect.succeed
    })
    const from = yield* Config.NonEmptyString("MAIL_FROM")
    const timeout = yield* Config.Duration("SERVICE_MAIL_TIMEOUT").pipe(Config.withDefault(DEFAULT_TIMEOUT))
    return layer({ server, from, timeout })
  })
)
