import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Duration, Effect, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as SmsSender from "../src/SmsSender.ts"
import * as TelegramSmsSender from "../src/TelegramSmsSender.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const TOKEN = "AAGateway-secret-token-1234567890"
const message: SmsSender.VerificationMessage = {
  to: "+79161234567",
  kind: "recover",
  code: "482913",
  text: "Veche: your code is 482913",
  ttl: Duration.minutes(5)
}

/** The gateway's documented success: `{ok: true, result: RequestStatus}`. */
const sent = {
  ok: true,
  result: { request_id: "req-1f2e3d", phone_number: "+79161234567", request_cost: 0.01, remaining_balance: 9.99 }
}

const sender = (baseUrl: string, timeout?: Duration.Duration) =>
  TelegramSmsSender.make({ token: Redacted.make(TOKEN), baseUrl, timeout }).pipe(Effect.provide(FetchHttpClient.layer))

describe("TelegramSmsSender", () => {
  it.live("posts phone_number, code and ttl as JSON with the bearer token, and answers channel messenger", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: sent }))
      const delivery = yield* (yield* sender(fake.baseUrl)).send(message)
      expect(delivery).toEqual({ channel: "messenger", provider: "telegram", id: "req-1f2e3d" })
      const [request] = fake.received
      expect(request?.method).toBe("POST")
      expect(request?.path).toBe("/sendVerificationMessage")
      expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`)
      expect(request?.headers["content-type"]).toContain("application/json")
      // Telegram renders its own text: only the code travels, never our text.
      expect(JSON.parse(request?.body ?? "")).toEqual({ phone_number: "+79161234567", code: "482913", ttl: 300 })
    })
  )

  it.live("keeps ttl within the gateway's 30-3600 seconds", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: sent }))
      const s = yield* sender(fake.baseUrl)
      yield* s.send({ ...message, ttl: Duration.seconds(5) })
      yield* s.send({ ...message, ttl: Duration.days(1) })
      yield* s.send({ ...message, ttl: undefined })
      expect(fake.received.map((r) => JSON.parse(r.body).ttl)).toEqual([30, 3600, undefined])
    })
  )

  it.live("an error about the phone (PHONE_NUMBER_INVALID) is SmsRejected", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        status: 400,
        json: { ok: false, error: "PHONE_NUMBER_INVALID" }
      }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error).toMatchObject({
        _tag: "SmsRejected",
        provider: "telegram",
        reason: "Telegram Gateway: PHONE_NUMBER_INVALID"
      })
    })
  )

  it.live("an account error (ACCESS_TOKEN_INVALID) is SmsUnavailable and never echoes the token", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        status: 401,
        json: { ok: false, error: "ACCESS_TOKEN_INVALID" }
      }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "SmsUnavailable", reason: "Telegram Gateway: ACCESS_TOKEN_INVALID" })
      expect(JSON.stringify(error)).not.toContain(TOKEN)
    })
  )

  it.live("an answer that is not the gateway's shape is SmsUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { result: "?" } }))
      const error = yield* (yield* sender(fake.baseUrl)).send(message).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "SmsUnavailable", reason: "unexpected answer (HTTP 200)" })
    })
  )

  it.live("a gateway that is down is SmsUnavailable", () =>
    Effect.gen(function* () {
      const error = yield* (yield* sender(yield* FakeHttpServer.closedBaseUrl)).send(message).pipe(Effect.flip)
      expect(error._tag).toBe("SmsUnavailable")
      expect(error.reason).toMatch(/^unreachable/)
    })
  )

  it.live("a gateway that never answers is cut off at the time limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ hang: true }))
      const started = yield* Clock.currentTimeMillis
      const error = yield* (yield* sender(fake.baseUrl, Duration.millis(250))).send(message).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "SmsUnavailable", reason: "timed out after 250ms" })
      expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(2_000)
    })
  )

  it.live("layerConfig reads TELEGRAM_GATEWAY_TOKEN and TELEGRAM_GATEWAY_BASE_URL", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: sent }))
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({ TELEGRAM_GATEWAY_TOKEN: TOKEN, TELEGRAM_GATEWAY_BASE_URL: fake.baseUrl })
      )
      const delivery = yield* Effect.gen(function* () {
        return yield* (yield* SmsSender.SmsSender).send(message)
      }).pipe(
        Effect.provide(TelegramSmsSender.layerConfig.pipe(Layer.provide(Layer.mergeAll(env, FetchHttpClient.layer))))
      )
      expect(delivery.channel).toBe("messenger")
      expect(fake.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`)
    })
  )
})
