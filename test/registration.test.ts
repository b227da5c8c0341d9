/** Registration by phone through HTTP: the code from the dev outbox, then the account and its session. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const post = (path: string, body: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  )
const start = (phone: string, captcha_token = "dev-captcha-ok") =>
  post("/api/v10/auth/register/phone", { phone, captcha_token })
const lastCode = (to: string) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const outbox = (yield* json(yield* host.fetch(`/api/v10/dev/outbox?to=${encodeURIComponent(to)}`))) as {
      messages: Array<{ code?: string; kind: string }>
    }
    return outbox.messages.at(-1)?.code ?? ""
  })
const profile = (overrides: Record<string, unknown> = {}) => ({
  username: "new_user",
  display_name: "New User",
  password: "correct horse battery",
  date_of_birth: "2000-02-29",
  consent: true,
  ...overrides
})

describe("Registration by phone", () => {
  layer(TestHost.layer())((it) => {
    it.effect("sends a code, then creates the account and answers 201 with a TokenPair that opens /users/@me", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const started = yield* start("8 (916) 123-45-67")
        expect(started.status).toBe(200)
        const answer = (yield* json(started)) as { verification_id: string }
        expect(answer).toEqual({
          verification_id: expect.stringMatching(/^\d{17,19}$/),
          expires_in: 300,
          phone: "+7 *** ***-**-67",
          channel: "console"
        })
        const code = yield* lastCode("+79161234567")
        expect(code).toMatch(/^\d{6}$/)

        const done = yield* post("/api/v10/auth/register/verify", {
          verification_id: answer.verification_id,
          code,
          ...profile()
        })
        expect(done.status).toBe(201)
        const pair = (yield* json(done)) as { access_token: string; user_id: string; token_type: string }
        expect(pair.token_type).toBe("Bearer")
        const me = yield* host.fetch("/api/v10/users/@me", {
          headers: { authorization: `Bearer ${pair.access_token}` }
        })
        expect(yield* json(me)).toMatchObject({ id: pair.user_id, username: "new_user", global_name: "New User" })

        // the code is single use, and the number now has an account
        const again = yield* post("/api/v10/auth/register/verify", {
          verification_id: answer.verification_id,
          code,
          ...profile({ username: "other_name" })
        })
        expect(again.status).toBe(403)
        expect(yield* json(again)).toEqual({ code: 70003, message: "Phone verification code invalid or expired" })
      })
    )

    it.effect("refuses a wrong code with 70003, and burns the record after five wrong ones", () =>
      Effect.gen(function* () {
        const { verification_id } = (yield* json(yield* start("+7 926 000-00-01"))) as { verification_id: string }
        const code = yield* lastCode("+79260000001")
        const wrong = code === "000000" ? "111111" : "000000"
        for (let i = 0; i < 5; i++) {
          const refused = yield* post("/api/v10/auth/register/verify", {
            verification_id,
            code: wrong,
            ...profile({ username: "wrong_code_user" })
          })
          expect(refused.status).toBe(403)
        }
        const burned = yield* post("/api/v10/auth/register/verify", {
          verification_id,
          code,
          ...profile({ username: "burned_user" })
        })
        expect(burned.status).toBe(403)
      })
    )

    it.effect("a code expires after expires_in seconds", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const { verification_id } = (yield* json(yield* start("+7 926 000-00-02"))) as { verification_id: string }
        const code = yield* lastCode("+79260000002")
        yield* host.adjustClock("5 minutes")
        const late = yield* post("/api/v10/auth/register/verify", {
          verification_id,
          code,
          ...profile({ username: "late_user" })
        })
        expect(late.status).toBe(403)
      })
    )

    it.effect("a taken username is a form error and does not spend the code", () =>
      Effect.gen(function* () {
        const { verification_id } = (yield* json(yield* start("+7 926 000-00-03"))) as { verification_id: string }
        const code = yield* lastCode("+79260000003")
        const taken = yield* post("/api/v10/auth/register/verify", {
          verification_id,
          code,
          ...profile({ username: "NEW_USER".toLowerCase() })
        })
        expect(taken.status).toBe(400)
        expect(yield* json(taken)).toMatchObject({
          code: 50035,
          errors: { username: { _errors: [{ code: "USERNAME_ALREADY_TAKEN" }] } }
        })
        // the names erased accounts keep are nobody's to take: a living deleted_user_<id> would
        // make that account's erasure fail on the unique name
        const reserved = yield* post("/api/v10/auth/register/verify", {
          verification_id,
          code,
          ...profile({ username: "deleted_user_1456074443980800001" })
        })
        expect(reserved.status).toBe(400)
        expect(yield* json(reserved)).toMatchObject({
          code: 50035,
          errors: { username: { _errors: [{ code: "USERNAME_INVALID_CONTAINS" }] } }
        })
        const fine = yield* post("/api/v10/auth/register/verify", {
          verification_id,
          code,
          ...profile({ username: "second.user" })
        })
        expect(fine.status).toBe(201)
      })
    )

    it.effect("lists every invalid field in one 50035", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const response = yield* host.fetch("/api/v10/auth/register/verify", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            verification_id: "1",
            code: "12345",
            username: "Bad Name!",
            password: "short",
            date_of_birth: "2020-01-01",
            consent: false
          })
        })
        expect(response.status).toBe(400)
        const body = (yield* json(response)) as {
          code: number
          errors: Record<string, { _errors: Array<{ code: string }> }>
        }
        expect(body.code).toBe(50035)
        expect(Object.keys(body.errors).sort()).toEqual(["code", "consent", "date_of_birth", "password", "username"])
        expect(body.errors.date_of_birth?._errors[0]?.code).toBe("DATE_OF_BIRTH_IS_UNDERAGE")
        expect(body.errors.password?._errors[0]?.code).toBe("BASE_TYPE_BAD_LENGTH")
      })
    )

    it.effect("refuses numbers that are not Russian mobile numbers", () =>
      Effect.gen(function* () {
        for (const phone of ["+1 212 555 0100", "12345", "+7 716 123 45 67"]) {
          const response = yield* start(phone)
          expect(response.status).toBe(400)
          expect(yield* json(response)).toMatchObject({
            code: 50035,
            errors: { phone: { _errors: [{ code: "PHONE_NUMBER_INVALID" }] } }
          })
        }
      })
    )
  })
})

describe("Captcha and SMS quotas", () => {
  layer(TestHost.layer())((it) => {
    it.effect("the first attempt from an address needs no captcha; later ones do", () =>
      Effect.gen(function* () {
        expect((yield* post("/api/v10/auth/register/phone", { phone: "+79260000010" })).status).toBe(200)
        const second = yield* post("/api/v10/auth/register/phone", { phone: "+79260000011" })
        expect(second.status).toBe(400)
        expect(yield* json(second)).toMatchObject({
          code: 50035,
          errors: { captcha_token: { _errors: [{ code: "CAPTCHA_REQUIRED" }] } }
        })
        expect((yield* start("+79260000011")).status).toBe(200)
      })
    )

    it.effect("three codes per number per hour, then 429 in the platform's shape", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        for (let i = 0; i < 3; i++) expect((yield* start("+79260000020")).status).toBe(200)
        const refused = yield* start("+79260000020")
        expect(refused.status).toBe(429)
        expect(yield* json(refused)).toEqual({
          message: "You are being rate limited.",
          retry_after: expect.any(Number),
          global: false
        })
        // only the newest code works: each new one retires the previous
        const messages = (yield* json(yield* host.fetch("/api/v10/dev/outbox?to=%2B79260000020"))) as {
          messages: Array<unknown>
        }
        expect(messages.messages).toHaveLength(3)
      })
    )
  })
})
