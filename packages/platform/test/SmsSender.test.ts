import { describe, expect, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as DevOutbox from "../src/DevOutbox.ts"
import * as SmsRuSmsSender from "../src/SmsRuSmsSender.ts"
import * as SmsSender from "../src/SmsSender.ts"
import * as TelegramSmsSender from "../src/TelegramSmsSender.ts"
import * as CapturedLogs from "./support/CapturedLogs.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const message: SmsSender.VerificationMessage = {
  to: "+79161234567",
  kind: "change_phone",
  code: "482913",
  text: "Veche: your code is 482913"
}

describe("SmsSender.layerConsole", () => {
  it.effect("answers channel console and records the message in the dev outbox", () =>
    Effect.gen(function* () {
      const delivery = yield* (yield* SmsSender.SmsSender).send(message)
      expect(delivery).toEqual({ channel: "console", provider: "console" })
      const outbox = yield* DevOutbox.DevOutbox
      const [recorded, ...rest] = yield* outbox.list("+79161234567")
      expect(rest).toEqual([])
      expect(recorded).toMatchObject({
        to: "+79161234567",
        channel: "console",
        kind: "change_phone",
        code: "482913",
        text: "Veche: your code is 482913"
      })
      expect(recorded?.link).toBeUndefined()
    }).pipe(Effect.provide(SmsSender.SmsSender.layerConsole), Effect.provide(DevOutbox.DevOutbox.layerMemory))
  )
})

describe("SmsSender.fallback", () => {
  const SMSRU_ID = "smsru-api-id-secret"
  const TG_TOKEN = "telegram-token-secret"

  it.live("Telegram first; a number without Telegram goes out by SMS, and no secret reaches a log", () =>
    Effect.gen(function* () {
      const telegram = yield* FakeHttpServer.start(() => ({ json: { ok: false, error: "PHONE_NUMBER_INVALID" } }))
      const smsru = yield* FakeHttpServer.start(() => ({
        json: {
          status: "OK",
          status_code: 100,
          sms: { "79161234567": { status: "OK", status_code: 100, sms_id: "1-2" } }
        }
      }))
      const sender = SmsSender.SmsSender.fallback(
        yield* TelegramSmsSender.make({ token: Redacted.make(TG_TOKEN), baseUrl: telegram.baseUrl }),
        yield* SmsRuSmsSender.make({ apiId: Redacted.make(SMSRU_ID), baseUrl: smsru.baseUrl })
      )
      const { exit, lines } = yield* CapturedLogs.capture(sender.send(message))
      expect(exit._tag === "Success" && exit.value).toEqual({ channel: "sms", provider: "smsru", id: "1-2" })
      expect(telegram.received).toHaveLength(1)
      expect(smsru.received).toHaveLength(1)
      expect(lines.join("\n")).toContain("PHONE_NUMBER_INVALID")
      for (const secret of [SMSRU_ID, TG_TOKEN, message.code]) expect(lines.join("\n")).not.toContain(secret)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.live("when every channel fails, the last failure is the answer", () =>
    Effect.gen(function* () {
      const telegram = yield* FakeHttpServer.start(() => ({ json: { ok: false, error: "BALANCE_NOT_ENOUGH" } }))
      const sender = SmsSender.SmsSender.fallback(
        yield* TelegramSmsSender.make({ token: Redacted.make(TG_TOKEN), baseUrl: telegram.baseUrl }),
        yield* SmsRuSmsSender.make({ apiId: Redacted.make(SMSRU_ID), baseUrl: yield* FakeHttpServer.closedBaseUrl })
      )
      const error = yield* sender.send(message).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "SmsUnavailable", provider: "smsru" })
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )

  it.live("the first channel that delivers ends the chain", () =>
    Effect.gen(function* () {
      const telegram = yield* FakeHttpServer.start(() => ({ json: { ok: true, result: { request_id: "r1" } } }))
      const smsru = yield* FakeHttpServer.start(() => ({ json: {} }))
      const sender = SmsSender.SmsSender.fallback(
        yield* TelegramSmsSender.make({ token: Redacted.make(TG_TOKEN), baseUrl: telegram.baseUrl }),
        yield* SmsRuSmsSender.make({ apiId: Redacted.make(SMSRU_ID), baseUrl: smsru.baseUrl })
      )
      expect((yield* sender.send(message)).channel).toBe("messenger")
      expect(smsru.received).toHaveLength(0)
    }).pipe(Effect.provide(FetchHttpClient.layer))
  )
})
