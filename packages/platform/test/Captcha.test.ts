import { describe, expect, it } from "@effect/vitest"
import { Clock, ConfigProvider, Duration, Effect, Layer, Option, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as Captcha from "../src/Captcha.ts"
import * as HCaptcha from "../src/HCaptcha.ts"
import * as YandexSmartCaptcha from "../src/YandexSmartCaptcha.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const SECRET = "ysc2_server-secret-key"
const CLIENT = "203.0.113.7"

describe("Captcha.layerDev", () => {
  it.effect("passes any non-empty token and refuses an empty one", () =>
    Effect.gen(function* () {
      const captcha = yield* Captcha.Captcha
      expect(captcha.service).toBe("dev")
      yield* captcha.verify("anything")
      expect(yield* captcha.verify("").pipe(Effect.flip)).toMatchObject({ _tag: "CaptchaInvalid" })
      expect(yield* captcha.verify("   ").pipe(Effect.flip)).toMatchObject({ _tag: "CaptchaInvalid" })
    }).pipe(Effect.provide(Captcha.Captcha.layerDev))
  )
})

describe("YandexSmartCaptcha", () => {
  const captcha = (baseUrl: string, timeout?: Duration.Duration) =>
    YandexSmartCaptcha.make({ secret: Redacted.make(SECRET), siteKey: "ysc1_client", baseUrl, timeout }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )

  it.live("posts secret, token and ip as a form; status ok passes", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { status: "ok", message: "", host: "veche.test" } }))
      const yandex = yield* captcha(fake.baseUrl)
      expect(yandex.service).toBe("yandex")
      expect(yandex.siteKey).toEqual(Option.some("ysc1_client"))
      yield* yandex.verify("token-from-widget", CLIENT)
      const [request] = fake.received
      expect(request?.method).toBe("POST")
      expect(request?.path).toBe("/validate")
      expect(request?.headers["content-type"]).toContain("application/x-www-form-urlencoded")
      expect(request?.form).toEqual({ secret: SECRET, token: "token-from-widget", ip: CLIENT })
    })
  )

  it.live("status failed is CaptchaInvalid with Yandex's message", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { status: "failed", message: "Invalid or expired Token." }
      }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("used-token", CLIENT).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaInvalid", reason: "Invalid or expired Token." })
    })
  )

  it.live("an empty token is CaptchaInvalid without asking Yandex", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { status: "ok" } }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("", CLIENT).pipe(Effect.flip)
      expect(error._tag).toBe("CaptchaInvalid")
      expect(fake.received).toHaveLength(0)
    })
  )

  it.live("a non-200 answer (even with a body) is CaptchaUnavailable, for the caller to decide", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        status: 403,
        json: { status: "failed", message: "Authentication failed. Secret has not provided." }
      }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("token", CLIENT).pipe(Effect.flip)
      expect(error).toMatchObject({
        _tag: "CaptchaUnavailable",
        provider: "yandex",
        reason: "SmartCaptcha answered HTTP 403"
      })
      expect(JSON.stringify(error)).not.toContain(SECRET)
    })
  )

  it.live("a service that is down is CaptchaUnavailable", () =>
    Effect.gen(function* () {
      const error = yield* (yield* captcha(yield* FakeHttpServer.closedBaseUrl)).verify("token").pipe(Effect.flip)
      expect(error._tag).toBe("CaptchaUnavailable")
    })
  )

  it.live("a service that never answers is cut off at the time limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ hang: true }))
      const started = yield* Clock.currentTimeMillis
      const error = yield* (yield* captcha(fake.baseUrl, Duration.millis(250))).verify("token").pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaUnavailable", reason: "timed out after 250ms" })
      expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(2_000)
    })
  )

  it.live("without a client address, no ip is sent", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { status: "ok", message: "" } }))
      yield* (yield* captcha(fake.baseUrl)).verify("token")
      expect(fake.received[0]?.form).toEqual({ secret: SECRET, token: "token" })
    })
  )
})

describe("HCaptcha", () => {
  const HSECRET = "0x0000000000000000000000000000000000000000"
  const captcha = (baseUrl: string, timeout?: Duration.Duration) =>
    HCaptcha.make({ secret: Redacted.make(HSECRET), siteKey: "site-key-1", baseUrl, timeout }).pipe(
      Effect.provide(FetchHttpClient.layer)
    )

  it.live("posts secret, response, remoteip and sitekey as a form; success passes", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { success: true, challenge_ts: "2026-11-22T04:00:00Z", hostname: "veche.test" }
      }))
      const hcaptcha = yield* captcha(fake.baseUrl)
      expect(hcaptcha.service).toBe("hcaptcha")
      yield* hcaptcha.verify("P0_eyJ0eXAi", CLIENT)
      const [request] = fake.received
      expect(request?.method).toBe("POST")
      expect(request?.path).toBe("/siteverify")
      expect(request?.headers["content-type"]).toContain("application/x-www-form-urlencoded")
      expect(request?.form).toEqual({
        secret: HSECRET,
        response: "P0_eyJ0eXAi",
        remoteip: CLIENT,
        sitekey: "site-key-1"
      })
    })
  )

  it.live("a bad or reused token is CaptchaInvalid", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { success: false, "error-codes": ["invalid-or-already-seen-response"] }
      }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("P0_old", CLIENT).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaInvalid", reason: "hCaptcha: invalid-or-already-seen-response" })
    })
  )

  it.live("a wrong secret is our fault, not the user's: CaptchaUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { success: false, "error-codes": ["invalid-input-secret"] }
      }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("P0_token", CLIENT).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaUnavailable", provider: "hcaptcha" })
      expect(JSON.stringify(error)).not.toContain(HSECRET)
    })
  )

  it.live("a 5xx is CaptchaUnavailable", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ status: 503, json: { success: false } }))
      const error = yield* (yield* captcha(fake.baseUrl)).verify("P0_token").pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaUnavailable", reason: "hCaptcha answered HTTP 503" })
    })
  )

  it.live("a service that is down is CaptchaUnavailable", () =>
    Effect.gen(function* () {
      const error = yield* (yield* captcha(yield* FakeHttpServer.closedBaseUrl)).verify("P0_token").pipe(Effect.flip)
      expect(error._tag).toBe("CaptchaUnavailable")
    })
  )

  it.live("a service that never answers is cut off at the time limit", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ hang: true }))
      const started = yield* Clock.currentTimeMillis
      const error = yield* (yield* captcha(fake.baseUrl, Duration.millis(250))).verify("P0_token").pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "CaptchaUnavailable", reason: "timed out after 250ms" })
      expect((yield* Clock.currentTimeMillis) - started).toBeLessThan(2_000)
    })
  )

  it.live("layerConfig reads CAPTCHA_SECRET, CAPTCHA_SITE_KEY and HCAPTCHA_BASE_URL", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { success: true } }))
      const env = ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({
          CAPTCHA_SECRET: HSECRET,
          CAPTCHA_SITE_KEY: "site-key-2",
          HCAPTCHA_BASE_URL: fake.baseUrl
        })
      )
      yield* Effect.gen(function* () {
        yield* (yield* Captcha.Captcha).verify("P0_token", CLIENT)
      }).pipe(Effect.provide(HCaptcha.layerConfig.pipe(Layer.provide(Layer.mergeAll(env, FetchHttpClient.layer)))))
      expect(fake.received[0]?.form).toMatchObject({ secret: HSECRET, sitekey: "site-key-2" })
    })
  )
})
