import { describe, expect, it } from "@effect/vitest"
import { DevOutbox, Mailer, Providers } from "@veche/platform"
import { Clock, ConfigProvider, Duration, Effect, Exit, Layer, Option, Redacted } from "effect"
import * as SmtpMailer from "../src/SmtpMailer.ts"
import * as FakeSmtpServer from "./support/FakeSmtpServer.ts"

const PASSWORD = "p@ss:w/rd-secret"
const letter: Mailer.Letter = {
  to: "alice@example.org",
  subject: "Confirm your e-mail",
  text: "Open https://veche.test/verify#token=tok_abc to confirm.",
  html: '<p>Open <a href="https://veche.test/verify#token=tok_abc">this link</a> to confirm.</p>',
  kind: "email_verify",
  link: "https://veche.test/verify#token=tok_abc",
  token: "tok_abc"
}

const server = (port: number, extra?: Partial<SmtpMailer.Server>): SmtpMailer.Server => ({
  host: "127.0.0.1",
  port,
  secure: false,
  user: "mailer",
  password: Redacted.make(PASSWORD),
  ...extra
})

describe("SmtpMailer", () => {
  it.live("logs in, sends from MAIL_FROM to the recipient, with subject, text and html", () =>
    Effect.gen(function* () {
      const fake = yield* FakeSmtpServer.start()
      const mailer = yield* SmtpMailer.make({ server: server(fake.port), from: "Veche <no-reply@veche.test>" })
      yield* mailer.send(letter)
      expect(fake.received).toHaveLength(1)
      const [mail] = fake.received
      expect(mail?.login).toEqual({ username: "mailer", password: PASSWORD })
      expect(mail?.from).toBe("no-reply@veche.test")
      expect(mail?.to).toEqual(["alice@example.org"])
      expect(mail?.raw).toContain("Subject: Confirm your e-mail")
      expect(mail?.raw).toContain("From: Veche <no-reply@veche.test>")
      expect(mail?.raw).toMatch(/Content-Type: multipart\/alternative/)
      expect(mail?.raw).toContain("https://veche.test/verify#token=tok_abc")
      expect(mail?.raw).toContain("text/html")
    })
  )

  it.live("a refused recipient is a permanent MailUnavailable that quotes no server text", () =>
    Effect.gen(function* () {
      const fake = yield* FakeSmtpServer.start({ refuse: ["alice@example.org"] })
      const mailer = yield* SmtpMailer.make({ server: server(fake.port), from: "no-reply@veche.test" })
      const error = yield* mailer.send(letter).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "MailUnavailable", provider: "smtp", permanent: true })
      expect(error.reason).toContain("550")
      expect(error.reason).not.toContain("mailbox")
      expect(fake.received).toHaveLength(0)
    })
  )

  it.live("a server that is down is a transient MailUnavailable that never shows the password", () =>
    Effect.gen(function* () {
      const port = yield* Effect.scoped(Effect.map(FakeSmtpServer.start(), (fake) => fake.port))
      const mailer = yield* SmtpMailer.make({ server: server(port), from: "no-reply@veche.test" })
      const error = yield* mailer.send(letter).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "MailUnavailable", permanent: false })
      expect(error.reason).toBe("SMTP ESOCKET")
      expect(JSON.stringify(error)).not.toContain(PASSWORD)
    })
  )

  it.live("a server that never greets is cut off at the time limit", () =>
    Effect.gen(function* () {
      const port = yield* FakeSmtpServer.silent
      const mailer = yield* SmtpMailer.make({
        server: server(port),
        from: "no-reply@veche.test",
        timeout: Duration.millis(300)
      })
      const started = yield* Clock.currentTimeMillis
      const error = yield* mailer.send(letter).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "MailUnavailable", permanent: false })
      expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(2_000)
    })
  )

  it.live("smtps:// speaks TLS from the first byte and verifies the certificate", () =>
    Effect.gen(function* () {
      // smtp-server's built-in certificate is self-signed: a verifying client must refuse it.
      const fake = yield* FakeSmtpServer.start({ secure: true })
      const mailer = yield* SmtpMailer.make({
        server: server(fake.port, { secure: true }),
        from: "no-reply@veche.test"
      })
      const error = yield* mailer.send(letter).pipe(Effect.flip)
      expect(error._tag).toBe("MailUnavailable")
      expect(fake.received).toHaveLength(0)
    })
  )

  it("parseUrl reads smtp:// and smtps:// URLs, percent-decoding the credentials", () => {
    const parsed = SmtpMailer.parseUrl(Redacted.make("smtp://mailer:p%40ss%3Aw%2Frd-secret@mail.example.org:2525"))
    expect(
      Option.map(parsed, ({ password, ...rest }) => ({ ...rest, password: password && Redacted.value(password) }))
    ).toEqual(Option.some({ host: "mail.example.org", port: 2525, secure: false, user: "mailer", password: PASSWORD }))
    expect(SmtpMailer.parseUrl(Redacted.make("smtps://u:p@mail.example.org"))).toMatchObject(
      Option.some({ host: "mail.example.org", port: 465, secure: true })
    )
    expect(SmtpMailer.parseUrl(Redacted.make("smtp://relay.internal"))).toMatchObject(
      Option.some({ host: "relay.internal", port: 587, secure: false, user: undefined, password: undefined })
    )
    expect(Option.isNone(SmtpMailer.parseUrl(Redacted.make("https://mail.example.org")))).toBe(true)
    expect(Option.isNone(SmtpMailer.parseUrl(Redacted.make("not a url")))).toBe(true)
  })

  it.live("layerConfig reads SMTP_URL and MAIL_FROM", () =>
    Effect.gen(function* () {
      const fake = yield* FakeSmtpServer.start()
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({
          SMTP_URL: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${fake.port}`,
          MAIL_FROM: "Veche <no-reply@veche.test>"
        })
      )
      yield* Effect.gen(function* () {
        yield* (yield* Mailer.Mailer).send(letter)
      }).pipe(Effect.provide(SmtpMailer.layerConfig.pipe(Layer.provide(env))))
      expect(fake.received[0]?.login?.password).toBe(PASSWORD)
    })
  )

  it.live("a malformed SMTP_URL fails the layer without echoing it", () =>
    Effect.gen(function* () {
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({ SMTP_URL: `http://mailer:${PASSWORD}@host`, MAIL_FROM: "a@b.c" })
      )
      const exit = yield* Effect.exit(Layer.build(SmtpMailer.layerConfig.pipe(Layer.provide(env))))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).toContain("SMTP_URL must be")
      expect(String(Exit.isFailure(exit) ? exit.cause : "")).not.toContain(PASSWORD)
    })
  )
})

describe("Providers.mailer with the SMTP driver", () => {
  it.live("SERVICE_MAIL_PROVIDER=smtp sends through SmtpMailer.layerConfig; without SMTP_URL it fails at startup", () =>
    Effect.gen(function* () {
      const fake = yield* FakeSmtpServer.start()
      const mailerWith = (env: Record<string, string>) =>
        Providers.mailer({ smtp: SmtpMailer.layerConfig }).pipe(
          Layer.provide(
            Layer.merge(DevOutbox.DevOutbox.layerMemory, ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
          )
        )
      yield* Effect.gen(function* () {
        yield* (yield* Mailer.Mailer).send(letter)
      }).pipe(
        Effect.provide(
          mailerWith({
            SERVICE_MAIL_PROVIDER: "smtp",
            SMTP_URL: `smtp://127.0.0.1:${fake.port}`,
            MAIL_FROM: "no-reply@veche.test"
          })
        )
      )
      expect(fake.received.map((mail) => mail.to)).toEqual([["alice@example.org"]])
      const exit = yield* Effect.exit(Layer.build(mailerWith({ SERVICE_MAIL_PROVIDER: "smtp", MAIL_FROM: "a@b.c" })))
      expect(Exit.isFailure(exit)).toBe(true)
    })
  )
})
