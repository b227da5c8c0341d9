/**
 * Races of the code and quota checks through HTTP on PostgreSQL (issue 16): the memory adapters
 * settle every step atomically and hide them, so these run only where a server is given.
 */
import { describe, expect, layer } from "@effect/vitest"
import { OtplibTotpCodes } from "@veche/otplib"
import { TestHost } from "@veche/test-host"
import { Clock, Effect, Layer, Redacted } from "effect"
import { awaitMessage, freshAddress, json, messagesTo, PASSWORD, post, register } from "~/test/support/Accounts"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

const host = () =>
  TestHost.layer({
    repositories: PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })

const NEW_PASSWORD = "a brand new password"
const BURST = 30
const TRIALS = 6

let nextPhone = 0
const freshPhone = () => `+7926333${String(process.pid % 100).padStart(2, "0")}${String(++nextPhone).padStart(2, "0")}`

/** Starts a phone recovery and reads its code from the dev outbox. */
const startRecovery = (phone: string) =>
  Effect.gen(function* () {
    // the code of this start: each start's message comes after the earlier ones
    const sent = (yield* messagesTo(phone)).filter((message) => message.kind === "recover").length
    const started = yield* post(
      "/api/v10/auth/recover/phone",
      { phone, captcha_token: "dev" },
      undefined,
      freshAddress()
    )
    expect(started.status).toBe(200)
    const { verification_id } = (yield* json(started)) as { verification_id: string }
    const code = (yield* awaitMessage(phone, "recover", sent + 1))?.code ?? ""
    return { verification_id, code }
  })

/** 29 wrong codes and the right one at `rightAt`, each from its own address, all at once. */
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

/** A fresh account with TOTP on, the clock past the enabling step: its phone, backup codes, app code. */
const withTotp = (username: string) =>
  Effect.gen(function* () {
    const testHost = yield* TestHost.TestHost
    yield* testHost.adjustClock("1 hour")
    const phone = freshPhone()
    const { access_token } = yield* register(phone, username)
    const appCode = Effect.map(testHost.run(Clock.currentTimeMillis), (now) => OtplibTotpCodes.codeAt(SECRET, now))
    const enabled = yield* post(
      "/api/v10/auth/mfa/totp",
      { password: PASSWORD, secret: SECRET, code: yield* appCode },
      access_token
    )
    expect(enabled.status).toBe(200)
    const backups = ((yield* json(enabled)) as { backup_codes: Array<string> }).backup_codes
    yield* testHost.adjustClock("30 seconds")
    return { phone, backups, appCode }
  })

const burst = (verification_id: string, code: string, rightAt: number) =>
  Effect.forEach(
    Array.from({ length: BURST }, (_, i) =>
      i === rightAt ? code : String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0")
    ),
    (guess) =>
      post(
        "/api/v10/auth/recover/verify",
        { verification_id, code: guess, new_password: NEW_PASSWORD },
        undefined,
        freshAddress()
      ),
    { concurrency: "unbounded" }
  )

describe.runIf(url !== undefined && url !== "")("Code races (PostgreSQL)", () => {
  layer(host(), { timeout: "120 seconds" })((it) => {
    it.effect("30 concurrent recovery codes with the right one sent last: it never wins, in any trial", () =>
      Effect.gen(function* () {
        const phone = freshPhone()
        yield* register(phone, `race_last_${process.pid % 1000}`)
        const testHost = yield* TestHost.TestHost
        for (let trial = 0; trial < TRIALS; trial++) {
          // a new hour: the phone's 3 codes an hour start again
          yield* testHost.adjustClock("1 hour")
          const { verification_id, code } = yield* startRecovery(phone)
          const answers = yield* burst(verification_id, code, BURST - 1)
          const statuses = answers.map((response) => response.status)
          expect(
            statuses.filter((s) => s === 200),
            `trial ${trial}`
          ).toEqual([])
          expect(statuses.every((s) => s === 403)).toBe(true)
        }
      })
    )

    it.effect("phone recovery with 2FA on: 60003 holds the code open, the app code then recovers once", () =>
      Effect.gen(function* () {
        const { phone, appCode } = yield* withTotp(`race_rec2fa_${process.pid % 1000}`)
        const { verification_id, code } = yield* startRecovery(phone)
        const body = { verification_id, code, new_password: NEW_PASSWORD }
        const held = yield* post("/api/v10/auth/recover/verify", body, undefined, freshAddress())
        expect(yield* json(held)).toMatchObject({ code: 60003, mfa: true })
        const mfa_code = yield* appCode
        // Two at once with the right pair: the record is used by exactly one.
        const answers = yield* Effect.forEach(
          [0, 1],
          () => post("/api/v10/auth/recover/verify", { ...body, mfa_code }, undefined, freshAddress()),
          { concurrency: "unbounded" }
        )
        expect(answers.map((response) => response.status).sort()).toEqual([200, 401])
      })
    )

    it.effect("the right SMS code with an app code and three backup codes at once: one token pair, one recovery", () =>
      Effect.gen(function* () {
        const { phone, appCode, backups } = yield* withTotp(`race_rec2fa_mix_${process.pid % 1000}`)
        const { verification_id, code } = yield* startRecovery(phone)
        const body = { verification_id, code, new_password: NEW_PASSWORD }
        const factors = [yield* appCode, ...backups.slice(0, 3)]
        const answers = yield* Effect.forEach(
          factors,
          (mfa_code) => post("/api/v10/auth/recover/verify", { ...body, mfa_code }, undefined, freshAddress()),
          { concurrency: "unbounded" }
        )
        expect(answers.map((response) => response.status).filter((status) => status === 200)).toHaveLength(1)
        // The others: 70003 (the record was used) or 60008 (the app code's step was taken).
        expect(answers.every((response) => [200, 401, 403].includes(response.status))).toBe(true)
      })
    )

    it.effect("without 2FA, the right code five times at once recovers once; eight at once, never twice", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        yield* testHost.adjustClock("1 hour")
        const phone = freshPhone()
        yield* register(phone, `race_rec_right_${process.pid % 1000}`)
        // Every submission is an attempt, the right ones too: past five the record burns, so eight
        // right codes at once may all be refused, but two can never both recover.
        for (const [times, winners] of [
          [5, [1]],
          [8, [0, 1]]
        ] as const) {
          const { verification_id, code } = yield* startRecovery(phone)
          const answers = yield* Effect.forEach(
            Array.from({ length: times }),
            () =>
              post(
                "/api/v10/auth/recover/verify",
                { verification_id, code, new_password: NEW_PASSWORD },
                undefined,
                freshAddress()
              ),
            { concurrency: "unbounded" }
          )
          const statuses = answers.map((response) => response.status)
          expect(winners).toContain(statuses.filter((status) => status === 200).length)
          expect(statuses.filter((status) => status !== 200).every((status) => status === 403)).toBe(true)
        }
      })
    )

    it.effect("30 parallel wrong passwords from one address: exactly 10 are judged, the rest answer 429", () =>
      Effect.gen(function* () {
        const phone = freshPhone()
        yield* register(phone, `race_pw_${process.pid % 1000}`)
        const from = freshAddress()
        const answers = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => `wrong password ${i}`),
          (password) => post("/api/v10/auth/login", { login: phone, password, captcha_token: "dev" }, undefined, from),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((response) => response.status)
        // Exactly the cap: each attempt takes its unit before the password is judged.
        expect(statuses.filter((s) => s === 401).length).toBe(10)
        expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true)
      })
    )

    it.effect(
      "right passwords from 20 addresses amid 30 wrong ones from one: all 20 get in, exactly 10 guesses are judged",
      () =>
        Effect.gen(function* () {
          const phone = freshPhone()
          yield* register(phone, `race_mix_${process.pid % 1000}`)
          const guesser = freshAddress()
          const guesses = Array.from({ length: 30 }, (_, i) => ({ password: `wrong password ${i}`, from: guesser }))
          const owners = Array.from({ length: 20 }, () => ({ password: PASSWORD, from: freshAddress() }))
          // Interleaved, so right passwords give units back while guesses are still in flight.
          const attempts = guesses.flatMap((guess, i) => [guess, ...(owners[i] === undefined ? [] : [owners[i]])])
          const answers = yield* Effect.forEach(
            attempts,
            (attempt) =>
              Effect.map(
                post(
                  "/api/v10/auth/login",
                  { login: phone, password: attempt.password, captcha_token: "dev" },
                  undefined,
                  attempt.from
                ),
                (response) => ({ right: attempt.password === PASSWORD, status: response.status })
              ),
            { concurrency: "unbounded" }
          )
          // A right password gives its units back and a guess keeps its own: the refunds never let an
          // eleventh guess be judged, and the guesses never refuse the owner at other addresses.
          expect(answers.filter((a) => a.right).map((a) => a.status)).toEqual(owners.map(() => 200))
          const judged = answers.filter((a) => !a.right).map((a) => a.status)
          expect(judged.filter((s) => s === 401).length).toBe(10)
          expect(judged.filter((s) => s !== 401).every((s) => s === 429)).toBe(true)
        })
    )

    it.effect("30 parallel wrong two-factor codes at login: at most 10 are judged, the rest answer 429", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const phone = freshPhone()
        const { access_token } = yield* register(phone, `race_mfa_${process.pid % 1000}`)
        const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
        const now = yield* testHost.run(Clock.currentTimeMillis)
        const enabled = yield* post(
          "/api/v10/auth/mfa/totp",
          { password: PASSWORD, secret, code: OtplibTotpCodes.codeAt(secret, now) },
          access_token
        )
        expect(enabled.status).toBe(200)
        // Backup-code-shaped guesses: each is looked up in the database, the gap a check-then-count
        // limiter let parallel guesses through.
        const answers = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => `guess${String(i).padStart(3, "0")}-0000`),
          (code) =>
            post(
              "/api/v10/auth/login",
              { login: phone, password: PASSWORD, code, captcha_token: "dev" },
              undefined,
              freshAddress()
            ),
          { concurrency: "unbounded" }
        )
        const statuses = answers.map((response) => response.status)
        expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10)
        expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true)
      })
    )
  })
})
