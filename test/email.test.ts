/** E-mail through HTTP: which methods an address is offered, registration by e-mail, confirmation links. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { awaitMessage, freshAddress, json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"

const RUSSIAN = "77.88.55.242"
const ABROAD = "8.8.8.8"
const LINK_INVALID = { code: 70004, message: "Email link invalid or expired" }

const methodsFrom = (address: string) => send("GET", "/api/v10/auth/methods", undefined, undefined, address)

const registerEmail = (email: string, from = ABROAD) =>
  post("/api/v10/auth/register/email", { email, captcha_token: "dev" }, undefined, from)

const verify = (verificationId: string, code: string | undefined, extra: Record<string, unknown> = {}) =>
  post("/api/v10/auth/register/verify", {
    verification_id: verificationId,
    code,
    username: "mail_user",
    password: PASSWORD,
    date_of_birth: "1990-05-05",
    consent: true,
    ...extra
  })

describe("Registration methods", () => {
  layer(TestHost.layer())((it) => {
    it.effect("offer e-mail only outside Russia, decided from the client address, never cached", () =>
      Effect.gen(function* () {
        const russian = yield* methodsFrom(RUSSIAN)
        expect(russian.status).toBe(200)
        expect(russian.headers.get("cache-control")).toBe("no-store")
        expect(yield* json(russian)).toEqual({ phone: true, email: false, country: "RU" })
        expect(yield* json(yield* methodsFrom(ABROAD))).toEqual({ phone: true, email: true, country: "" })
        // an address the data does not place counts as not Russian
        expect(yield* json(yield* methodsFrom("198.51.100.1"))).toEqual({ phone: true, email: true, country: "" })
      })
    )
  })
})

describe("Session records", () => {
  layer(TestHost.layer())((it) => {
    it.effect("show the client's address and country", () =>
      Effect.gen(function* () {
        const account = yield* register("+79361110010", "country_user")
        const fromRussia = yield* post(
          "/api/v10/auth/login",
          { login: "+79361110010", password: PASSWORD, captcha_token: "dev" },
          undefined,
          RUSSIAN
        )
        expect(fromRussia.status).toBe(200)
        const sessions = (yield* json(
          yield* send("GET", "/api/v10/auth/sessions", undefined, account.access_token)
        )) as Array<{
          client_info: { ip: string | null; country: string | null }
        }>
        expect(sessions.map((session) => session.client_info)).toContainEqual(
          expect.objectContaining({ ip: RUSSIAN, country: "RU" })
        )
      })
    )
  })
})

describe("Registration by e-mail", () => {
  layer(TestHost.layer())((it) => {
    it.effect("is refused with 403 from a Russian address", () =>
      Effect.gen(function* () {
        const response = yield* registerEmail("ivan@example.ru", RUSSIAN)
        expect(response.status).toBe(403)
        expect(yield* json(response)).toEqual({ code: 0, message: "403: Forbidden" })
      })
    )

    it.effect("mails a code; completing makes an account without a phone that logs in by e-mail", () =>
      Effect.gen(function* () {
        const started = yield* registerEmail("  Jane.Doe@Example.ORG ")
        expect(started.status).toBe(200)
        const body = (yield* json(started)) as { verification_id: string }
        expect(body).toMatchObject({ expires_in: 300, email: "J***@example.org", channel: "email", code_length: 6 })
        const letter = yield* awaitMessage("Jane.Doe@example.org", "register")
        expect(letter?.channel).toBe("email")
        const code = letter?.code
        expect(code).toMatch(/^\d{6}$/)
        expect(letter?.text).toContain(code)
        // the state route knows the check as an e-mail one only under its own purpose
        expect((yield* send("GET", `/api/v10/auth/verify/${body.verification_id}`)).status).toBe(403)

        const done = yield* verify(body.verification_id, code, { username: "jane_doe" })
        expect(done.status).toBe(201)
        const pair = (yield* json(done)) as { access_token: string }
        expect((yield* send("GET", "/api/v10/users/@me", undefined, pair.access_token)).status).toBe(200)
        expect((yield* login({ email: "jane.doe@example.org", password: PASSWORD })).status).toBe(200)
        expect((yield* login({ login: "Jane.Doe@example.org", password: PASSWORD })).status).toBe(200)

        // the address is taken now: a second registration with it fails at completion, on `email`
        const again = (yield* json(yield* registerEmail("jane.doe@example.org"))) as { verification_id: string }
        const secondCode = (yield* awaitMessage("jane.doe@example.org", "register"))?.code
        const taken = yield* verify(again.verification_id, secondCode, { username: "jane_two" })
        expect(taken.status).toBe(400)
        expect(yield* json(taken)).toMatchObject({
          code: 50035,
          errors: { email: { _errors: [{ code: "EMAIL_ALREADY_REGISTERED" }] } }
        })
      })
    )

    it.effect("5 letters per address an hour, then 429", () =>
      Effect.gen(function* () {
        for (let i = 0; i < 5; i++) {
          expect((yield* registerEmail("busy@example.org", freshAddress())).status).toBe(200)
        }
        const limited = yield* registerEmail("busy@example.org", freshAddress())
        expect(limited.status).toBe(429)
        expect(yield* json(limited)).toMatchObject({ global: false })
      })
    )

    it.effect("refuses malformed addresses with 50035 on email", () =>
      Effect.gen(function* () {
        for (const email of ["no-at-sign", "two@@example.org", "a@b", "spaces in@example.org", 7]) {
          const response = yield* registerEmail(email as string)
          expect(response.status).toBe(400)
          expect(yield* json(response)).toMatchObject({ code: 50035, errors: { email: {} } })
        }
      })
    )
  })
})

describe("E-mail registration when mail cannot be sent", () => {
  layer(TestHost.layer({ delivery: "down" }))((it) => {
    it.effect("answers 503 and creates nothing to complete", () =>
      Effect.gen(function* () {
        const response = yield* registerEmail("late@example.org")
        expect(response.status).toBe(503)
        expect(yield* json(response)).toEqual({ code: 0, message: "503: Service Unavailable" })
        const phone = yield* post("/api/v10/auth/register/phone", { phone: "+79361119999", captcha_token: "dev" })
        expect(phone.status).toBe(503)
      })
    )
  })
})

describe("E-mail confirmation links", () => {
  layer(TestHost.layer())((it) => {
    it.effect("an address given at registration is bound by following the mailed link, once", () =>
      Effect.gen(function* () {
        yield* register("+79361110001", "link_user", { email: "link.user@example.org" })
        expect((yield* login({ email: "link.user@example.org", password: PASSWORD })).status).toBe(401)
        const letter = yield* awaitMessage("link.user@example.org", "email_verify")
        expect(letter?.link).toBe(`https://veche.test/verify-email?token=${letter?.token}`)
        const confirmed = yield* post("/api/v10/auth/email/verify", { token: letter?.token })
        expect(confirmed.status).toBe(200)
        expect(yield* json(confirmed)).toEqual({ email: "link.user@example.org" })
        expect((yield* login({ email: "link.user@example.org", password: PASSWORD })).status).toBe(200)
        const again = yield* post("/api/v10/auth/email/verify", { token: letter?.token })
        expect(again.status).toBe(403)
        expect(yield* json(again)).toEqual(LINK_INVALID)
        expect((yield* post("/api/v10/auth/email/verify", {})).status).toBe(400)
      })
    )

    it.effect("a link expires after a day; whoever confirms an address first keeps it", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        yield* register("+79361110002", "link_late", { email: "late@example.org" })
        const late = (yield* awaitMessage("late@example.org", "email_verify"))?.token
        yield* host.adjustClock("1 day")
        expect(yield* json(yield* post("/api/v10/auth/email/verify", { token: late }))).toEqual(LINK_INVALID)

        yield* register("+79361110003", "link_first", { email: "shared@example.org" })
        yield* register("+79361110004", "link_second", { email: "shared@example.org" })
        const first = (yield* awaitMessage("shared@example.org", "email_verify", 1))?.token
        const second = (yield* awaitMessage("shared@example.org", "email_verify", 2))?.token
        expect((yield* post("/api/v10/auth/email/verify", { token: second })).status).toBe(200)
        expect(yield* json(yield* post("/api/v10/auth/email/verify", { token: first }))).toEqual(LINK_INVALID)
      })
    )

    it.effect("a captcha is due after the first attempt from an address", () =>
      Effect.gen(function* () {
        const from = freshAddress()
        const first = yield* post("/api/v10/auth/register/email", { email: "c1@example.org" }, undefined, from)
        expect(first.status).toBe(200)
        const second = yield* post("/api/v10/auth/register/email", { email: "c2@example.org" }, undefined, from)
        expect(second.status).toBe(400)
        expect(yield* json(second)).toMatchObject({
          errors: { captcha_token: { _errors: [{ code: "CAPTCHA_REQUIRED" }] } }
        })
      })
    )
  })
})
