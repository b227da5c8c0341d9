/** GET /auth/verify/{id} and POST /auth/verify/{id}/sms through HTTP. */
import { describe, expect, layer } from "@effect/vitest"
import { VerificationsRepo } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect } from "effect"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)
const fetchPath = (path: string, init?: RequestInit) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.fetch(path, init))
const startRegistration = (phone: string) =>
  Effect.flatMap(
    fetchPath("/api/v10/auth/register/phone", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone, captcha_token: "dev" })
    }),
    (r) => json(r) as Effect.Effect<{ verification_id: string }>
  )
const outboxSize = (to: string) =>
  Effect.map(
    Effect.flatMap(fetchPath(`/api/v10/dev/outbox?to=${encodeURIComponent(to)}`), json),
    (body) => (body as { messages: Array<unknown> }).messages.length
  )
const INVALID = { code: 70003, message: "Phone verification code invalid or expired" }

describe("Phone check state and the switch to SMS", () => {
  layer(TestHost.layer())((it) => {
    it.effect("reports the state without using attempts; other purposes and unknown ids answer 70003", () =>
      Effect.gen(function* () {
        const { verification_id } = yield* startRegistration("+79261110001")
        for (let i = 0; i < 10; i++) {
          const state = yield* fetchPath(`/api/v10/auth/verify/${verification_id}`)
          expect(state.status).toBe(200)
          expect(yield* json(state)).toEqual({ status: "needs_code", code_length: 6, channel: "console" })
        }
        expect(yield* json(yield* fetchPath(`/api/v10/auth/verify/${verification_id}?purpose=register`))).toMatchObject(
          {
            status: "needs_code"
          }
        )
        for (const path of [
          `/api/v10/auth/verify/${verification_id}?purpose=recover`,
          "/api/v10/auth/verify/1311000000000000777"
        ]) {
          const refused = yield* fetchPath(path)
          expect(refused.status).toBe(403)
          expect(yield* json(refused)).toEqual(INVALID)
        }
        expect((yield* fetchPath("/api/v10/auth/verify/not-a-snowflake")).status).toBe(400)
      })
    )

    it.effect("an expired check answers 70003", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const { verification_id } = yield* startRegistration("+79261110002")
        yield* host.adjustClock("5 minutes")
        expect((yield* fetchPath(`/api/v10/auth/verify/${verification_id}`)).status).toBe(403)
      })
    )

    it.effect("on an ordinary SMS check, /sms changes nothing and sends nothing", () =>
      Effect.gen(function* () {
        const { verification_id } = yield* startRegistration("+79261110003")
        const before = yield* outboxSize("+79261110003")
        const answer = yield* fetchPath(`/api/v10/auth/verify/${verification_id}/sms`, { method: "POST" })
        expect(answer.status).toBe(200)
        expect(yield* json(answer)).toEqual({ status: "needs_code", code_length: 6, channel: "console" })
        expect(yield* outboxSize("+79261110003")).toBe(before)
      })
    )

    it.effect("a carrier check moves to a 6-digit SMS code once; a repeat sends no second SMS", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const phone = "+79261110004"
        // A carrier (mobile-ID) check as its adapter would leave it: a 4-digit code, pending.
        const id = yield* host.run(
          Effect.gen(function* () {
            const id = yield* (yield* Snowflake.SnowflakeGenerator).next
            const now = yield* DateTime.now
            yield* Effect.orDie(
              (yield* VerificationsRepo.VerificationsRepo).create({
                id,
                purpose: "register",
                target: phone,
                channel: "mobileid",
                codeDigest: "carrier-side",
                codeLength: 4,
                status: "pending",
                attempts: 0,
                maxAttempts: 5,
                createdAt: now,
                expiresAt: DateTime.add(now, { minutes: 5 }),
                consumedAt: null,
                userId: null,
                smsSwitched: false
              })
            )
            return id
          })
        )
        expect(yield* json(yield* fetchPath(`/api/v10/auth/verify/${id}`))).toEqual({
          status: "pending",
          code_length: 4,
          channel: "mobileid"
        })
        const switched = yield* Effect.all(
          [
            fetchPath(`/api/v10/auth/verify/${id}/sms`, { method: "POST" }),
            fetchPath(`/api/v10/auth/verify/${id}/sms`, { method: "POST" })
          ],
          { concurrency: 2 }
        )
        for (const answer of switched) {
          expect(yield* json(answer)).toEqual({ status: "needs_code", code_length: 6, channel: "sms" })
        }
        expect(yield* outboxSize(phone)).toBe(1)
        yield* fetchPath(`/api/v10/auth/verify/${id}/sms`, { method: "POST" })
        expect(yield* outboxSize(phone)).toBe(1)
      })
    )
  })
})
