/** POST /auth/login through HTTP, on accounts created by the registration routes. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { freshAddress, post as postFrom, register as registerAccount } from "./support/Accounts.ts"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const post = (path: string, body: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  )
const PASSWORD = "correct horse battery"

const register = (phone: string, username: string) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const started = (yield* json(yield* post("/api/v10/auth/register/phone", { phone, captcha_token: "dev" }))) as {
      verification_id: string
    }
    const outbox = (yield* json(yield* host.fetch(`/api/v10/dev/outbox?to=${encodeURIComponent(phone)}`))) as {
      messages: Array<{ code: string }>
    }
    const done = yield* post("/api/v10/auth/register/verify", {
      verification_id: started.verification_id,
      code: outbox.messages.at(-1)?.code,
      username,
      password: PASSWORD,
      date_of_birth: "1995-01-01",
      consent: true
    })
    expect(done.status).toBe(201)
    return (yield* json(done)) as { user_id: string; access_token: string }
  })

const login = (body: Record<string, unknown>) => post("/api/v10/auth/login", { captcha_token: "dev", ...body })
const BAD = { code: 50014, message: "Invalid authentication token" }

describe("Login", () => {
  layer(TestHost.layer())((it) => {
    it.effect("logs in by phone in any spelling (login, phone or email field) with a new session each time", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79031230001", "login_user")
        for (const body of [
          { login: "+79031230001", password: PASSWORD },
          { login: "8 (903) 123-00-01", password: PASSWORD },
          { phone: "+7 903 123 00 01", password: PASSWORD }
        ]) {
          const response = yield* login(body)
          expect(response.status).toBe(200)
          expect(yield* json(response)).toMatchObject({
            token_type: "Bearer",
            user_id: account.user_id,
            expires_in: 3600
          })
        }
        const sessions = (yield* json(
          yield* host.fetch("/api/v10/auth/sessions", { headers: { authorization: `Bearer ${account.access_token}` } })
        )) as Array<unknown>
        expect(sessions).toHaveLength(4) // registration + three logins
      })
    )

    it.effect("a wrong password and an unknown account get the same 401 50014", () =>
      Effect.gen(function* () {
        yield* register("+79031230002", "second_login")
        const wrong = yield* login({ login: "+79031230002", password: "not the password" })
        const unknown = yield* login({ login: "+79031239999", password: PASSWORD })
        const nobody = yield* login({ login: "nobody@example.com", password: PASSWORD })
        for (const response of [wrong, unknown, nobody]) {
          expect(response.status).toBe(401)
          expect(yield* json(response)).toEqual(BAD)
        }
        // passwords are compared exactly as typed
        expect((yield* login({ login: "+79031230002", password: `${PASSWORD} ` })).status).toBe(401)
      })
    )

    it.effect(
      "after 10 failures for an account from one address it answers 429, even to the right password, until the window passes",
      () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          yield* register("+79031230003", "third_login")
          for (let i = 0; i < 10; i++)
            expect((yield* login({ login: "+79031230003", password: "wrong" })).status).toBe(401)
          const limited = yield* login({ login: "+79031230003", password: PASSWORD })
          expect(limited.status).toBe(429)
          expect(yield* json(limited)).toMatchObject({ message: "You are being rate limited.", global: false })
          yield* host.adjustClock("15 minutes")
          expect((yield* login({ login: "+79031230003", password: PASSWORD })).status).toBe(200)
        })
    )

    it.effect("without a login field it is a 50035 naming `login`", () =>
      Effect.gen(function* () {
        const response = yield* login({ password: PASSWORD })
        expect(response.status).toBe(400)
        expect(yield* json(response)).toMatchObject({
          code: 50035,
          errors: { login: { _errors: [{ code: "BASE_TYPE_REQUIRED" }] } }
        })
      })
    )
  })
})

describe("Login captcha", () => {
  layer(TestHost.layer())((it) => {
    it.effect("the first attempt from an address needs no captcha; later ones do", () =>
      Effect.gen(function* () {
        const first = yield* post("/api/v10/auth/login", { login: "+79031239998", password: PASSWORD })
        expect(first.status).toBe(401)
        const second = yield* post("/api/v10/auth/login", { login: "+79031239998", password: PASSWORD })
        expect(second.status).toBe(400)
        expect(yield* json(second)).toMatchObject({
          errors: { captcha_token: { _errors: [{ code: "CAPTCHA_REQUIRED" }] } }
        })
      })
    )
  })
})

describe("Login failure limits (issue 16)", () => {
  layer(TestHost.layer())((it) => {
    const CAPTCHA_REQUIRED = { code: 50035, errors: { captcha_token: { _errors: [{ code: "CAPTCHA_REQUIRED" }] } } }

    it.effect("30 parallel wrong passwords from one address: exactly 10 are judged, the rest answer 429", () =>
      Effect.gen(function* () {
        yield* registerAccount("+79031240001", "parallel_guess")
        const from = freshAddress()
        const answers = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => `wrong ${i}`),
          (password) =>
            postFrom("/api/v10/auth/login", { login: "+79031240001", password, captcha_token: "dev" }, undefined, from),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((response) => response.status)
        // Exactly the cap: each attempt takes its unit before the password is judged.
        expect(statuses.filter((s) => s === 401).length).toBe(10)
        expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true)
      })
    )

    it.effect(
      "30 parallel wrong passwords from 30 addresses without captcha: at most 10 judged, the rest need one",
      () =>
        Effect.gen(function* () {
          yield* registerAccount("+79031240002", "spread_guess")
          const answers = yield* Effect.forEach(
            Array.from({ length: 30 }, (_, i) => `wrong ${i}`),
            (password) =>
              postFrom("/api/v10/auth/login", { login: "+79031240002", password }, undefined, freshAddress()),
            { concurrency: "unbounded" }
          )
          const statuses = answers.map((response) => response.status)
          expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10)
          for (const response of answers.filter((r) => r.status !== 401)) {
            expect(response.status).toBe(400)
            expect(yield* json(response)).toMatchObject(CAPTCHA_REQUIRED)
          }
        })
    )

    it.effect("failures from many addresses ask the owner for a captcha, never lock them out", () =>
      Effect.gen(function* () {
        const phone = "+79031240003"
        yield* registerAccount(phone, "not_locked_out")
        for (let i = 0; i < 12; i++) {
          const failed = yield* postFrom(
            "/api/v10/auth/login",
            { login: phone, password: "wrong", captcha_token: "dev" },
            undefined,
            freshAddress()
          )
          expect(failed.status).toBe(401)
        }
        // The owner from an address of their own: without a captcha, the captcha answer, not 429 …
        const owner = freshAddress()
        const asked = yield* postFrom("/api/v10/auth/login", { login: phone, password: PASSWORD }, undefined, owner)
        expect(asked.status).toBe(400)
        expect(yield* json(asked)).toMatchObject(CAPTCHA_REQUIRED)
        // … and with one, in.
        const solved = yield* postFrom(
          "/api/v10/auth/login",
          { login: phone, password: PASSWORD, captcha_token: "dev" },
          undefined,
          owner
        )
        expect(solved.status).toBe(200)
      })
    )

    it.effect("one address hammering one account meets 429, even with a captcha and the right password", () =>
      Effect.gen(function* () {
        const phone = "+79031240004"
        yield* registerAccount(phone, "hammered")
        const from = freshAddress()
        for (let i = 0; i < 10; i++) {
          const failed = yield* postFrom(
            "/api/v10/auth/login",
            { login: phone, password: "wrong", captcha_token: "dev" },
            undefined,
            from
          )
          expect(failed.status).toBe(401)
        }
        const limited = yield* postFrom(
          "/api/v10/auth/login",
          { login: phone, password: PASSWORD, captcha_token: "dev" },
          undefined,
          from
        )
        expect(limited.status).toBe(429)
        expect(limited.headers.get("retry-after")).not.toBeNull()
        // The owner elsewhere still gets in (with the captcha the account's failures now ask for).
        const owner = yield* postFrom(
          "/api/v10/auth/login",
          { login: phone, password: PASSWORD, captcha_token: "dev" },
          undefined,
          freshAddress()
        )
        expect(owner.status).toBe(200)
      })
    )

    it.effect("the per account and address limit counts an IPv6 client by its /64", () =>
      Effect.gen(function* () {
        const phone = "+79031240006"
        yield* registerAccount(phone, "hammered_v6")
        // ten failures, each from a fresh address of one /64
        for (let i = 0; i < 10; i++) {
          const failed = yield* postFrom(
            "/api/v10/auth/login",
            { login: phone, password: "wrong", captcha_token: "dev" },
            undefined,
            `2001:db8:1606:1::${i + 1}`
          )
          expect(failed.status).toBe(401)
        }
        const limited = yield* postFrom(
          "/api/v10/auth/login",
          { login: phone, password: PASSWORD, captcha_token: "dev" },
          undefined,
          "2001:db8:1606:1:ffff::1"
        )
        expect(limited.status).toBe(429)
      })
    )

    it.effect("a right password gives its units back: logins never run the account's budget down", () =>
      Effect.gen(function* () {
        const phone = "+79031240005"
        yield* registerAccount(phone, "often_in")
        const from = freshAddress()
        for (let i = 0; i < 12; i++) {
          const response = yield* postFrom(
            "/api/v10/auth/login",
            { login: phone, password: PASSWORD, captcha_token: "dev" },
            undefined,
            from
          )
          expect(response.status).toBe(200)
        }
      })
    )
  })
})
