/**
 * The phone and e-mail change routes must not tell a registered number or address from a free one
 * once the caller's quota is used: the quota is counted before the lookup, so both get the same 429.
 * (Before that, a taken one answered 409 or 400 and a free one 429: a free oracle of who is registered.)
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { awaitMessage, freshAddress, json, PASSWORD, post, register } from "./support/Accounts.ts"

/** Status, body and the retry header: everything a caller could compare. */
const whole = (response: Response) =>
  Effect.map(json(response), (body) => ({
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body
  }))

describe("Change routes once the caller's quota is used", () => {
  // Route limits off: the quotas of the flows are what is tested here.
  layer(TestHost.layer({ rateLimits: { enabled: false } }))((it) => {
    it.effect("POST /users/@me/phone answers a registered and a free number alike", () =>
      Effect.gen(function* () {
        const caller = yield* register("+79681000001", "enum_phone_caller")
        yield* register("+79681000002", "enum_phone_holder")
        const from = freshAddress()
        const start = (phone: string) =>
          post("/api/v10/users/@me/phone", { password: PASSWORD, phone }, caller.access_token, from)
        // A registered number is refused while the quota lasts (the spec's 409)...
        expect((yield* start("+79681000002")).status).toBe(409)
        // ...and then the caller's per-address SMS quota (10 an hour) is used up on free numbers.
        for (let i = 0; i < 9; i++) expect((yield* start(`+7968100010${i}`)).status).toBe(200)
        const taken = yield* whole(yield* start("+79681000002"))
        const free = yield* whole(yield* start("+79681000199"))
        expect(taken.status).toBe(429)
        expect(taken).toEqual(free)
      })
    )

    it.effect("POST /users/@me/email answers a registered and a free address alike", () =>
      Effect.gen(function* () {
        yield* register("+79681000011", "enum_mail_holder", { email: "enum-held@example.org" })
        const letter = yield* awaitMessage("enum-held@example.org", "email_verify")
        expect((yield* post("/api/v10/auth/email/verify", { token: letter?.token })).status).toBe(200)
        const caller = yield* register("+79681000012", "enum_mail_caller")
        const add = (email: string) =>
          post("/api/v10/users/@me/email", { password: PASSWORD, email }, caller.access_token)
        // One request a minute: the first uses the caller's quota.
        expect((yield* add("enum-free-1@example.org")).status).toBe(200)
        const taken = yield* whole(yield* add("enum-held@example.org"))
        const free = yield* whole(yield* add("enum-free-2@example.org"))
        expect(taken.status).toBe(429)
        expect(taken).toEqual(free)
      })
    )
  })
})
