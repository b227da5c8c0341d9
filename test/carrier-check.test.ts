/**
 * Registration with a carrier check (mobile ID) configured: the carrier "rings" with a 4-digit code;
 * a refusal moves the check to the service's 6-digit SMS; the person may ask for the SMS instead,
 * once. The dev carrier adapter records calls in the outbox and refuses numbers ending in 00.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { awaitMessage, freshAddress, json, messagesTo, PASSWORD, post, send } from "./support/Accounts.ts"

const start = (phone: string) =>
  Effect.gen(function* () {
    const response = yield* post(
      "/api/v10/auth/register/phone",
      { phone, captcha_token: "dev" },
      undefined,
      freshAddress()
    )
    expect(response.status).toBe(200)
    return ((yield* json(response)) as { verification_id: string }).verification_id
  })

const state = (id: string) => Effect.flatMap(send("GET", `/api/v10/auth/verify/${id}`), json)

/** The check's state once the background call has settled (it no longer says pending). */
const settled = (id: string) =>
  Effect.gen(function* () {
    for (let i = 0; i < 100; i++) {
      const current = (yield* state(id)) as { status: string }
      if (current.status !== "pending") return current
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 10)))
    }
    return yield* state(id)
  })

const complete = (id: string, code: string | undefined, username: string) =>
  post("/api/v10/auth/register/verify", {
    verification_id: id,
    code,
    username,
    password: PASSWORD,
    date_of_birth: "1990-05-05",
    consent: true
  })

describe("Carrier checks (mobile ID)", () => {
  layer(TestHost.layer({ carrierCheck: true }))((it) => {
    it.effect("the carrier's call brings a 4-digit code that completes registration", () =>
      Effect.gen(function* () {
        const phone = "+79561110001"
        const id = yield* start(phone)
        expect(yield* settled(id)).toEqual({ status: "needs_code", code_length: 4, channel: "mobileid" })
        const call = yield* awaitMessage(phone, "register")
        expect(call?.channel).toBe("mobileid")
        expect(call?.code).toMatch(/^\d{4}$/)
        // no SMS went out
        expect((yield* messagesTo(phone)).filter((m) => m.channel !== "mobileid")).toEqual([])
        const wrong = yield* complete(id, call?.code === "0000" ? "1111" : "0000", "carrier_wrong")
        expect(wrong.status).toBe(403)
        expect((yield* complete(id, call?.code, "carrier_user")).status).toBe(201)
      })
    )

    it.effect("a refusing carrier moves the check to a 6-digit SMS code", () =>
      Effect.gen(function* () {
        const phone = "+79561110100"
        const id = yield* start(phone)
        expect(yield* settled(id)).toEqual({ status: "needs_code", code_length: 6, channel: "sms" })
        const sms = yield* awaitMessage(phone, "register")
        expect(sms?.channel).toBe("console")
        expect(sms?.code).toMatch(/^\d{6}$/)
        expect((yield* complete(id, sms?.code, "carrier_refused")).status).toBe(201)
      })
    )

    it.effect("asking for the SMS instead switches once; a repeat sends no second SMS", () =>
      Effect.gen(function* () {
        const phone = "+79561110002"
        const id = yield* start(phone)
        yield* settled(id)
        const switched = yield* send("POST", `/api/v10/auth/verify/${id}/sms`)
        expect(yield* json(switched)).toEqual({ status: "needs_code", code_length: 6, channel: "sms" })
        const again = yield* send("POST", `/api/v10/auth/verify/${id}/sms`)
        expect(yield* json(again)).toEqual({ status: "needs_code", code_length: 6, channel: "sms" })
        const messages = yield* messagesTo(phone)
        expect(messages.filter((m) => m.channel === "console")).toHaveLength(1)
        const call = messages.find((m) => m.channel === "mobileid")
        // the carrier's code no longer works; the SMS code does
        expect((yield* complete(id, call?.code, "carrier_switch")).status).toBe(403)
        const sms = messages.find((m) => m.channel === "console")
        expect((yield* complete(id, sms?.code, "carrier_switch")).status).toBe(201)
      })
    )
  })
})
