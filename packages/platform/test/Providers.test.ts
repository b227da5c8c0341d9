import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import * as Captcha from "../src/Captcha.ts"
import * as DevOutbox from "../src/DevOutbox.ts"
import * as Mailer from "../src/Mailer.ts"
import * as Providers from "../src/Providers.ts"
import * as SmsSender from "../src/SmsSender.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const message: SmsSender.VerificationMessage = {
  to: "+79161234567",
  kind: "register",
  code: "123456",
  text: "code 123456"
}

/** SMS, mail and captcha from `env`, with a fetch client and a fresh dev outbox. */
const withEnv = (env: Record<string, string>) =>
  Providers.layerConfig().pipe(
    Layer.provideMerge(DevOutbox.DevOutbox.layerMemory),
    Layer.provide(Layer.mergeAll(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), FetchHttpClient.layer))
  )

describe("Providers", () => {
  it.live("with nothing set, every port is its dev adapter", () =>
    Effect.gen(function* () {
      const delivery = yield* (yield* SmsSender.SmsSender).send(message)
      expect(delivery.channel).toBe("console")
      yield* (yield* Mailer.Mailer).send({ to: "a@b.c", subject: "s", text: "t", kind: "email_recover" })
      expect((yield* (yield* DevOutbox.DevOutbox).list()).map((m) => m.channel)).toEqual(["console", "email"])
      expect((yield* Captcha.Captcha).service).toBe("dev")
    }).pipe(Effect.provide(withEnv({})))
  )

  it.live("SERVICE_SMS_PROVIDER=telegram,smsru tries Telegram, then SMS.ru", () =>
    Effect.gen(function* () {
      const telegram = yield* FakeHttpServer.start(() => ({ json: { ok: false, error: "PHONE_NUMBER_INVALID" } }))
      const smsru = yield* FakeHttpServer.start(() => ({
        json: {
          status: "OK",
          status_code: 100,
          sms: { "79161234567": { status: "OK", status_code: 100, sms_id: "9" } }
        }
      }))
      const env = {
        SERVICE_SMS_PROVIDER: " Telegram , smsru ",
        TELEGRAM_GATEWAY_TOKEN: "tg",
        TELEGRAM_GATEWAY_BASE_URL: telegram.baseUrl,
        SMSRU_API_ID: "id",
        SMSRU_BASE_URL: smsru.baseUrl
      }
      const delivery = yield* Effect.gen(function* () {
        return yield* (yield* SmsSender.SmsSender).send(message)
      }).pipe(Effect.provide(withEnv(env)))
      expect(delivery).toEqual({ channel: "sms", provider: "smsru", id: "9" })
      expect(telegram.received).toHaveLength(1)
      expect(smsru.received).toHaveLength(1)
    })
  )

  it.live("SERVICE_CAPTCHA_PROVIDER picks yandex or hcaptcha", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { status: "ok", message: "" } }))
      const service = yield* Effect.gen(function* () {
        const captcha = yield* Captcha.Captcha
        yield* captcha.verify("token", "203.0.113.7")
        return captcha.service
      }).pipe(
        Effect.provide(
          withEnv({ SERVICE_CAPTCHA_PROVIDER: "yandex", CAPTCHA_SECRET: "s", SMARTCAPTCHA_BASE_URL: fake.baseUrl })
        )
      )
      expect(service).toBe("yandex")
      expect(fake.received[0]?.path).toBe("/validate")
      const hcaptcha = yield* Effect.gen(function* () {
        return (yield* Captcha.Captcha).service
      }).pipe(Effect.provide(withEnv({ SERVICE_CAPTCHA_PROVIDER: "hcaptcha", CAPTCHA_SECRET: "s" })))
      expect(hcaptcha).toBe("hcaptcha")
    })
  )

  it.live("an unknown provider, or a real one without its secret, fails at startup", () =>
    Effect.gen(function* () {
      for (const env of [
        { SERVICE_SMS_PROVIDER: "pigeon" },
        { SERVICE_SMS_PROVIDER: "telegram,pigeon" },
        { SERVICE_SMS_PROVIDER: " , " },
        { SERVICE_SMS_PROVIDER: "smsru" },
        { SERVICE_MAIL_PROVIDER: "smtp" },
        { SERVICE_CAPTCHA_PROVIDER: "recaptcha" },
        { SERVICE_CAPTCHA_PROVIDER: "hcaptcha" }
      ]) {
        const exit = yield* Effect.exit(Layer.build(withEnv(env)))
        expect([env, Exit.isFailure(exit)]).toEqual([env, true])
      }
    })
  )
})
