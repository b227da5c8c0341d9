import { describe, expect, it } from "@effect/vitest"
import { type Duration, Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as CarrierCheck from "../src/CarrierCheck.ts"
import * as DevOutbox from "../src/DevOutbox.ts"
import * as SmsRuCallCheck from "../src/SmsRuCallCheck.ts"
import * as FakeHttpServer from "./support/FakeHttpServer.ts"

const API_ID = "B1A2C3D4-0000-4E7D-82EE-CF82B52B1A8B"

const checker = (baseUrl: string, timeout?: Duration.Duration) =>
  SmsRuCallCheck.make({ apiId: Redacted.make(API_ID), baseUrl, timeout }).pipe(Effect.provide(FetchHttpClient.layer))

describe("SmsRuCallCheck", () => {
  it.live("posts api_id, phone (digits) and json=1 as a form, and answers the 4 digits of the calling number", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({
        json: { status: "OK", code: "1435", call_id: "000000-10000000", cost: 0.4, balance: 4122.56 }
      }))
      const check = yield* checker(fake.baseUrl)
      expect(check.enabled).toBe(true)
      expect(yield* check.call("+79161234567", "register")).toEqual({ code: "1435", provider: "smsru-call" })
      const [request] = fake.received
      expect(request?.path).toBe("/code/call")
      expect(request?.form).toMatchObject({ api_id: API_ID, phone: "79161234567", json: "1" })
    })
  )

  it.live("keeps leading zeros of a numeric code", () =>
    Effect.gen(function* () {
      const fake = yield* FakeHttpServer.start(() => ({ json: { status: "OK", code: 42, call_id: "x" } }))
      expect((yield* (yield* checker(fake.baseUrl)).call("+79161234567", "register")).code).toBe("0042")
    })
  )

  it.live("a refusal about the number is CarrierRefused; other failures are CarrierUnavailable", () =>
    Effect.gen(function* () {
      const refused = yield* FakeHttpServer.start(() => ({
        json: { status: "ERROR", status_code: 207, status_text: "На этот номер нет маршрута" }
      }))
      const e1 = yield* (yield* checker(refused.baseUrl)).call("+79161234567", "register").pipe(Effect.flip)
      expect(e1._tag).toBe("CarrierRefused")
      const account = yield* FakeHttpServer.start(() => ({
        json: { status: "ERROR", status_code: 201, status_text: "Не хватает средств" }
      }))
      const e2 = yield* (yield* checker(account.baseUrl)).call("+79161234567", "register").pipe(Effect.flip)
      expect(e2._tag).toBe("CarrierUnavailable")
      expect(JSON.stringify(e2)).not.toContain(API_ID)
      const broken = yield* FakeHttpServer.start(() => ({ status: 502, text: "bad gateway" }))
      expect((yield* (yield* checker(broken.baseUrl)).call("+79161234567", "register").pipe(Effect.flip))._tag).toBe(
        "CarrierUnavailable"
      )
      const noCode = yield* FakeHttpServer.start(() => ({ json: { status: "OK" } }))
      expect((yield* (yield* checker(noCode.baseUrl)).call("+79161234567", "register").pipe(Effect.flip))._tag).toBe(
        "CarrierUnavailable"
      )
    })
  )
})

describe("CarrierCheck.layerNone", () => {
  it.effect("is off, so the flows send SMS codes straight away", () =>
    Effect.gen(function* () {
      const check = yield* CarrierCheck.CarrierCheck
      expect(check.enabled).toBe(false)
      expect((yield* check.call("+79161234567", "register").pipe(Effect.flip))._tag).toBe("CarrierRefused")
    }).pipe(Effect.provide(CarrierCheck.CarrierCheck.layerNone))
  )
})

describe("CarrierCheck.layerDev", () => {
  it.effect("records the call's code in the outbox and refuses numbers ending in 00", () =>
    Effect.gen(function* () {
      const check = yield* CarrierCheck.CarrierCheck
      const outbox = yield* DevOutbox.DevOutbox
      const call = yield* check.call("+79161234567", "register")
      expect(call.code).toMatch(/^\d{4}$/)
      expect(yield* outbox.list("+79161234567")).toMatchObject([{ channel: "mobileid", code: call.code }])
      expect((yield* check.call("+79161234500", "register").pipe(Effect.flip))._tag).toBe("CarrierRefused")
    }).pipe(Effect.provide(CarrierCheck.CarrierCheck.layerDev), Effect.provide(DevOutbox.DevOutbox.layerMemory))
  )
})
