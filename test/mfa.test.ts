/** Two-factor authentication through HTTP: TOTP on and off, backup codes, and login's second factor. */
import { describe, expect, layer } from "@effect/vitest"
import { Totp } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { TestHost } from "@veche/test-host"
import { Clock, Effect } from "effect"
import { json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"

/** 20 bytes in base32, as an authenticator app makes them. */
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
const BACKUP_CODE = /^[a-z0-9]{8}-[a-z0-9]{4}$/

/** The app's code at the host's clock, moved by `steps` periods. */
const appCode = (steps = 0) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const now = yield* host.run(Clock.currentTimeMillis)
    return OtplibTotpCodes.codeAt(SECRET, now + steps * Totp.PERIOD_SECONDS * 1000)
  })

const nextPeriod = Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("30 seconds"))

const state = (token: string) => Effect.flatMap(send("GET", "/api/v10/auth/mfa", undefined, token), json)

const enable = (token: string, body: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    return yield* post(
      "/api/v10/auth/mfa/totp",
      { password: PASSWORD, secret: SECRET, code: yield* appCode(), ...body },
      token
    )
  })

const enabled = (token: string) =>
  Effect.gen(function* () {
    const response = yield* enable(token)
    expect(response.status).toBe(200)
    return ((yield* json(response)) as { backup_codes: Array<string> }).backup_codes
  })

const MFA_REQUIRED = { code: 60003, message: "Two factor is required for this operation", mfa: true }
const BAD_CODE = { code: 60008, message: "Invalid two-factor code" }

describe("Two-factor authentication", () => {
  layer(TestHost.layer())((it) => {
    it.effect("is off at first and needs a user token", () =>
      Effect.gen(function* () {
        const account = yield* register("+79161110001", "mfa_off")
        expect(yield* state(account.access_token)).toEqual({ totp_enabled: false, backup_codes_left: 0 })
        expect((yield* send("GET", "/api/v10/auth/mfa")).status).toBe(401)
      })
    )

    it.effect("enabling checks the password, the secret and the current code", () =>
      Effect.gen(function* () {
        const { access_token: token } = yield* register("+79161110002", "mfa_enable")
        const wrongPassword = yield* enable(token, { password: "not my password" })
        expect(wrongPassword.status).toBe(400)
        expect(yield* json(wrongPassword)).toMatchObject({
          code: 50035,
          errors: { password: { _errors: [{ code: "PASSWORD_DOES_NOT_MATCH" }] } }
        })
        for (const secret of ["JBSWY3DPEHPK3PX", "JBSWY3DPEHPK3PX0JBSWY3DPEHPK3PX1", 42]) {
          const badSecret = yield* enable(token, { secret })
          expect(badSecret.status).toBe(400)
          expect(yield* json(badSecret)).toMatchObject({ code: 50035, errors: { secret: {} } })
        }
        const wrongCode = yield* enable(token, { code: (yield* appCode()) === "000000" ? "111111" : "000000" })
        expect(wrongCode.status).toBe(401)
        expect(yield* json(wrongCode)).toEqual(BAD_CODE)
        expect(yield* state(token)).toEqual({ totp_enabled: false, backup_codes_left: 0 })

        // Apps show the secret grouped and in either case; it is the same secret.
        const grouped = SECRET.toLowerCase().replace(/(.{4})/g, "$1 ")
        const first = yield* enable(token, { secret: grouped })
        expect(first.status).toBe(200)
        yield* nextPeriod
        const response = yield* enable(token)
        expect(response.status).toBe(400)
        expect(yield* json(response)).toEqual({ code: 60001, message: "Two factor is already enabled" })
        expect(yield* state(token)).toEqual({ totp_enabled: true, backup_codes_left: 10 })
      })
    )

    it.effect("the longest secret accepted (128 characters) is judged, not a 500", () =>
      Effect.gen(function* () {
        const { access_token: token } = yield* register("+79161110019", "mfa_long_secret")
        const secret = SECRET.repeat(4)
        const host = yield* TestHost.TestHost
        const now = yield* host.run(Clock.currentTimeMillis)
        const right = OtplibTotpCodes.codeAt(secret, now)
        const wrong = yield* enable(token, { secret, code: right === "000000" ? "111111" : "000000" })
        expect(wrong.status).toBe(401)
        expect(yield* json(wrong)).toEqual(BAD_CODE)
        expect((yield* enable(token, { secret, code: right })).status).toBe(200)
        const tooLong = yield* enable(token, { secret: `${secret}AB` })
        expect(tooLong.status).toBe(400)
      })
    )

    it.effect("login then needs a fresh app code or an unused backup code, each accepted once", () =>
      Effect.gen(function* () {
        const phone = "+79161110003"
        const { access_token: token } = yield* register(phone, "mfa_login")
        const backup = yield* enabled(token)
        expect(backup).toHaveLength(10)
        for (const code of backup) expect(code).toMatch(BACKUP_CODE)
        expect(new Set(backup).size).toBe(10)

        const noCode = yield* login({ login: phone, password: PASSWORD })
        expect(noCode.status).toBe(401)
        expect(yield* json(noCode)).toEqual(MFA_REQUIRED)
        // A wrong password stays a plain 50014: it does not reveal that 2FA is on.
        const wrongPassword = yield* login({ login: phone, password: "nope nope nope" })
        expect(yield* json(wrongPassword)).toMatchObject({ code: 50014 })

        // The code that enabled 2FA has been used: its time step is spent.
        const replay = yield* login({ login: phone, password: PASSWORD, code: yield* appCode() })
        expect(replay.status).toBe(401)
        expect(yield* json(replay)).toEqual(BAD_CODE)

        yield* nextPeriod
        const fresh = yield* appCode()
        expect((yield* login({ login: phone, password: PASSWORD, code: fresh })).status).toBe(200)
        expect(yield* json(yield* login({ login: phone, password: PASSWORD, code: fresh }))).toEqual(BAD_CODE)

        // One period of drift either way is absorbed; two are not.
        yield* nextPeriod
        expect((yield* login({ login: phone, password: PASSWORD, code: yield* appCode(1) })).status).toBe(200)
        yield* nextPeriod
        yield* nextPeriod
        expect((yield* login({ login: phone, password: PASSWORD, code: yield* appCode(2) })).status).toBe(401)

        // Backup codes: case, spaces and the hyphen do not matter; each works once.
        const [first, second] = backup as [string, string]
        expect((yield* login({ login: phone, password: PASSWORD, code: ` ${first.toUpperCase()} ` })).status).toBe(200)
        expect(yield* json(yield* login({ login: phone, password: PASSWORD, code: first }))).toEqual(BAD_CODE)
        expect((yield* login({ login: phone, password: PASSWORD, code: second.replace("-", "") })).status).toBe(200)
        expect(yield* state(token)).toEqual({ totp_enabled: true, backup_codes_left: 8 })
      })
    )

    it.effect("two concurrent logins with one fresh code: exactly one passes", () =>
      Effect.gen(function* () {
        const phone = "+79161110004"
        const { access_token: token } = yield* register(phone, "mfa_race")
        const backup = yield* enabled(token)
        yield* nextPeriod
        const code = yield* appCode()
        const statuses = yield* Effect.all(
          Array.from({ length: 5 }, () =>
            Effect.map(login({ login: phone, password: PASSWORD, code }), (response) => response.status)
          ),
          { concurrency: "unbounded" }
        )
        expect(statuses.filter((status) => status === 200)).toHaveLength(1)
        const backupStatuses = yield* Effect.all(
          Array.from({ length: 5 }, () =>
            Effect.map(login({ login: phone, password: PASSWORD, code: backup[0] }), (response) => response.status)
          ),
          { concurrency: "unbounded" }
        )
        expect(backupStatuses.filter((status) => status === 200)).toHaveLength(1)
      })
    )

    it.effect("new backup codes need the password and replace the old set", () =>
      Effect.gen(function* () {
        const phone = "+79161110005"
        const { access_token: token } = yield* register(phone, "mfa_codes")
        const off = yield* post("/api/v10/auth/mfa/codes", { password: PASSWORD }, token)
        expect(off.status).toBe(400)
        expect(yield* json(off)).toEqual({ code: 60002, message: "Two factor is not enabled" })

        const old = yield* enabled(token)
        const wrong = yield* post("/api/v10/auth/mfa/codes", { password: "wrong password" }, token)
        expect(wrong.status).toBe(400)
        const renewed = yield* post("/api/v10/auth/mfa/codes", { password: PASSWORD }, token)
        expect(renewed.status).toBe(200)
        const codes = ((yield* json(renewed)) as { backup_codes: Array<string> }).backup_codes
        expect(codes).toHaveLength(10)
        expect(codes.some((code) => old.includes(code))).toBe(false)
        expect(yield* json(yield* login({ login: phone, password: PASSWORD, code: old[0] }))).toEqual(BAD_CODE)
        expect((yield* login({ login: phone, password: PASSWORD, code: codes[0] })).status).toBe(200)
      })
    )

    it.effect("turning TOTP off needs an app or backup code; afterwards login needs none", () =>
      Effect.gen(function* () {
        const phone = "+79161110006"
        const { access_token: token } = yield* register(phone, "mfa_disable")
        const backup = yield* enabled(token)
        const wrong = yield* send("DELETE", "/api/v10/auth/mfa/totp", { code: "000000" }, token)
        expect(wrong.status).toBe(401)
        expect(yield* json(wrong)).toEqual(BAD_CODE)
        const missing = yield* send("DELETE", "/api/v10/auth/mfa/totp", {}, token)
        expect(missing.status).toBe(400)
        expect((yield* send("DELETE", "/api/v10/auth/mfa/totp", { code: backup[3] }, token)).status).toBe(204)
        expect(yield* state(token)).toEqual({ totp_enabled: false, backup_codes_left: 0 })
        const again = yield* send("DELETE", "/api/v10/auth/mfa/totp", { code: backup[4] }, token)
        expect(again.status).toBe(400)
        expect(yield* json(again)).toEqual({ code: 60002, message: "Two factor is not enabled" })
        expect((yield* login({ login: phone, password: PASSWORD })).status).toBe(200)
        // and it can be turned on again, with a new secret proof
        yield* nextPeriod
        expect(yield* enabled(token)).toHaveLength(10)
      })
    )

    it.effect("30 parallel wrong password re-checks: at most 10 are judged, the rest answer 429 (issue 16)", () =>
      Effect.gen(function* () {
        const { access_token: token } = yield* register("+79161110009", "recheck_parallel")
        const answers = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => `wrong ${i}`),
          (password) => post("/api/v10/auth/mfa/codes", { password }, token),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((response) => response.status)
        expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10)
        expect(statuses.filter((s) => s !== 400).every((s) => s === 429)).toBe(true)
        // A right password gives its unit back: twelve in a row never meet the budget (the
        // password passes and the route answers that 2FA is off).
        yield* Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("15 minutes"))
        for (let i = 0; i < 12; i++) {
          const answer = yield* post("/api/v10/auth/mfa/codes", { password: PASSWORD }, token)
          expect(yield* json(answer)).toMatchObject({ code: 60002 })
        }
      })
    )

    it.effect("wrong codes are counted per account: the 11th attempt in 15 minutes answers 429", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const phone = "+79161110007"
        const { access_token: token } = yield* register(phone, "mfa_guess")
        yield* enabled(token)
        yield* nextPeriod
        const right = yield* appCode()
        const wrongCode = right === "123456" ? "654321" : "123456"
        for (let i = 0; i < 10; i++) {
          expect((yield* login({ login: phone, password: PASSWORD, code: wrongCode })).status).toBe(401)
        }
        const limited = yield* login({ login: phone, password: PASSWORD, code: right })
        expect(limited.status).toBe(429)
        expect(yield* json(limited)).toMatchObject({ global: false })
        yield* host.adjustClock("15 minutes")
        expect((yield* login({ login: phone, password: PASSWORD, code: yield* appCode() })).status).toBe(200)
      })
    )
  })
})
