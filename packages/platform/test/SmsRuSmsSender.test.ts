import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Duration, Effect, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as SmsRuSmsSender from "../src/SmsRuSmsSender.ts"
import * as SmsSender from "../src/SmsSender.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const API_ID = "B1A2C3D4-0000-4E7D-82EE-CF82B52B1A8B"
const message: SmsSender.VerificationMessage = {
  to: "+79161234567",
  kind: "register",
  code: "482913",
  text: "Veche: your code is 482913"
}

/** SMS.ru's documented answer for one accepted number. */
const accepted = {
  status: "OK",
  status_code: 100,
  sms: { "79161234567": { status: "OK", status_code: 100, sms_id: "000000-10000000" } },
  balance: 4122.56
}

const sender = (baseUrl: string, extra?: Partial<SmsRuSmsSender.Options>) =>
  SmsRuSmsSender.make({ apiId: Redacted.make(API_ID), baseUrl, ...extra }).pipe(Effect.provide(FetchHttpClient.layer))

describe("SmsRuSmsSender", () => {
  it.live("posts api_id, to (digits only), msg and json=1 as a form, and answers channel sms", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: accepted }))
      const delivery = yield* (yield* sender(fake.baseUrl)).send(message)
      expect(delivery).toEqual({ channel: "sms", provider: "smsru", id: "000000-10000000" })
      expect(fake.received).toHaveLength(1)
      const [request] = fake.received
      expect(request?.method).toBe("POST")
      expect(request?.path).toBe("/sms/send")
      expect(request?.headers["content-type"]).toContain("application/x-www-form-urlencoded")
      expect(request?.form).toEqual({ api_id: API_ID, to: "79161234567", msg: message.text, json: "1" })
    })
  )

  it.live("sends the sender name and test mode when configured", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: accepted }))
      yield* (yield* sender(fake.baseUrl, { from: "Veche", test: true })).send(message)
      expect(fake.received[0]?.form).toMatchObject({ from: "Veche", test: "1" })
    })
  )

  it.live("a per-number refusal about the recipient (207: no route) is SmsRejected", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: {
          status: "OK",
          status_code: 100,
          sms: { "79161234567": { status: "ERROR", status_code: 207, status_text: "На этот номер нет маршрута" } },
          balance: 10
        }
      }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error._tag).toBe("SmsRejected")
      expect(error.reason).toContain("207")
    })
  )

  it.live("an account problem (200: wrong api_id) is SmsUnavailable and never echoes the api_id", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { status: "ERROR", status_code: 200, status_text: "Неправильный api_id" }
      }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error._tag).toBe("SmsUnavailable")
      expect(error.reason).toContain("200")
      expect(JSON.stringify(error)).not.toContain(API_ID)
      expect(String(error)).not.toContain(API_ID)
    })
  )

  it.live("a per-number failure that is not about the recipient (220: service unavailable) is SmsUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { status: "OK", status_code: 100, sms: { "79161234567": { status: "ERROR", status_code: 220 } } }
      }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error._tag).toBe("SmsUnavailable")
    })
  )

  it.live("a provider answering an HTML error page is SmsUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ status: 502, text: "<html>Bad Gateway</html>" }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "SmsUnavailable", reason: "unexpected answer (HTTP 502)" })
    })
  )

  it.live("a provider that is down is SmsUnavailable", () =>
    Effect.gen(function* () {
      const baseUrl = yield* FakeHttpServer.closedBaseUrl
      const error = yield* (yield* sender(baseUrl)).send(message).pipe(Effect.flip)
      expect(error._tag).toBe("SmsUnavailable")
      expect(error.reason).toMatch(/^unreachable/)
    })
  )

  it.live("a provider that never answers is cut off at the time limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ hang: true }))
      const started = yield* Clock.currentTimeMillis
      const error = yield* (yield* sender(fake.baseUrl, { timeout: Duration.millis(300) }))
        .send(message)
        .pipe(Effect.flip)
      const elapsed = (yield* Clock.currentTimeMillis) - started
      expect(error).toMatchObject({ _tag: "SmsUnavailable", reason: "timed out after 300ms" })
      expect(fake.received).toHaveLength(1)
      expect(elapsed).toBeLessThan(2_000)
    })
  )

  it.live("layerConfig reads SMSRU_API_ID, SMSRU_BASE_URL, SMSRU_FROM and SMSRU_TEST", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: accepted }))
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({
          SMSRU_API_ID: API_ID,
          SMSRU_BASE_URL: `${fake.baseUrl}/`,
          SMSRU_FROM: "Veche",
          SMSRU_TEST: "true",
          SERVICE_SMS_TIMEOUT: "2 seconds"
        })
      )
      const delivery = yield* Effect.gen(function* () {
        return yield* (yield* SmsSender.SmsSender).send(message)
      }).pipe(
        Effect.provide(SmsRuSmsSender.layerConfig.pipe(Layer.provide(Layer.mergeAll(env, FetchHttpClient.layer))))
      )
      expect(delivery.channel).toBe("sms")
      expect(fake.received[0]?.path).toBe("/sms/send")
      expect(fake.received[0]?.form).toMatchObject({ api_id: API_ID, from: "Veche", test: "1" })
    })
  )
})
