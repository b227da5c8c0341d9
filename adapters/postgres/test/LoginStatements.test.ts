/**
 * Login on PostgreSQL (issue 22): a right password costs two statements, the account's lookup (its
 * block and TOTP record joined in) and the session's insert; and what those joins now decide
 * still holds on this store: a block refuses only the right password (a wrong one stays 50014),
 * and 2FA asks for its code. Statements are counted as the spans effect's SQL client opens, one
 * per statement while tracing is on, under a tracer that records them.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Login, Totp } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { TestHost } from "@veche/test-host"
import { Clock, DateTime, Effect, Layer, Redacted } from "effect"
import { json, login, PASSWORD, post, register, send } from "~/test/support/Accounts"
import { spansOf, statements } from "~/test/support/StatementSpans"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL
const STAFF_PHONE = `+7946222${String(process.pid % 10_000).padStart(4, "0")}`
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

/** A phone of this run (the schema is shared by the file's tests). */
let counter = 0
const phone = () => `+7946333${String((process.pid * 10 + ++counter) % 10_000).padStart(4, "0")}`

const host = () =>
  TestHost.layer({
    staff: { phones: [STAFF_PHONE] },
    repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })

describe.runIf(url !== undefined && url !== "")("Login on PostgreSQL", () => {
  layer(host(), { timeout: 60_000 })((it) => {
    it.effect("a right password runs two statements: the account's lookup and the session's insert", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const login = phone()
        yield* register(login, `statements_${process.pid % 1000}`)
        const attempt = Effect.gen(function* () {
          const logins = yield* Login.Login
          return yield* logins.login(
            { login, password: Redacted.make(PASSWORD), captchaToken: "dev", address: "198.51.100.7" },
            { userAgent: null, address: "198.51.100.7", country: null }
          )
        })
        const { result, names } = yield* testHost.run(spansOf(attempt))
        expect(Redacted.value(result.accessToken)).not.toBe("")
        expect(statements(names)).toHaveLength(2)
        // The tracer did see the login: the count is not zero for want of spans.
        expect(names).toContain("Login.login")
      })
    )

    it.effect("a block refuses the right password with 40007 and its term; a wrong one stays 50014", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const staff = yield* register(STAFF_PHONE, `pg_staff_${process.pid % 1000}`)
        const target = phone()
        const account = yield* register(target, `pg_blocked_${process.pid % 1000}`)
        const until = DateTime.formatIso(DateTime.add(yield* testHost.run(DateTime.now), { days: 7 }))
        const path = `/api/v10/moderation/users/${account.user_id}/block`
        expect((yield* send("PUT", path, { reason: "spam", until }, staff.access_token)).status).toBe(200)

        const refused = yield* login({ login: target, password: PASSWORD })
        expect(refused.status).toBe(403)
        const body = (yield* json(refused)) as { code: number; message: string }
        expect(body.code).toBe(40007)
        expect(body.message).toContain("spam")
        expect(body.message).toContain(until)
        expect(yield* json(yield* login({ login: target, password: "not the password" }))).toMatchObject({
          code: 50014
        })
        // Lifted: the next login reads no block.
        expect((yield* send("DELETE", path, undefined, staff.access_token)).status).toBe(204)
        expect((yield* login({ login: target, password: PASSWORD })).status).toBe(200)
      })
    )

    it.effect("with 2FA on, the right password asks for the code, and a fresh app code logs in", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const target = phone()
        const account = yield* register(target, `pg_mfa_${process.pid % 1000}`)
        const codeAt = (steps: number) =>
          Effect.map(testHost.run(Clock.currentTimeMillis), (now) =>
            OtplibTotpCodes.codeAt(SECRET, now + steps * Totp.PERIOD_SECONDS * 1000)
          )
        const enabled = yield* post(
          "/api/v10/auth/mfa/totp",
          { password: PASSWORD, secret: SECRET, code: yield* codeAt(0) },
          account.access_token
        )
        expect(enabled.status).toBe(200)

        const asked = yield* login({ login: target, password: PASSWORD })
        expect(asked.status).toBe(401)
        expect(yield* json(asked)).toMatchObject({ code: 60003, mfa: true })
        expect(yield* json(yield* login({ login: target, password: "not the password" }))).toMatchObject({
          code: 50014
        })
        // The enabling code's step is spent; the next step's code is fresh.
        yield* testHost.adjustClock("30 seconds")
        const code = yield* codeAt(0)
        expect((yield* login({ login: target, password: PASSWORD, code })).status).toBe(200)
        // The same step again is a replay.
        expect(yield* json(yield* login({ login: target, password: PASSWORD, code }))).toMatchObject({ code: 60008 })
      })
    )
  })
})
