/** Platform blocks through HTTP: staff block and unblock; a blocked account's tokens answer 403 40007. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { DateTime, Effect } from "effect"
import { awaitMessage, json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"
import { expectBadTermsRefused } from "./support/ModerationTerms.ts"

const STAFF_PHONE = "+79461110000"

const blockPath = (userId: string) => `/api/v10/moderation/users/${userId}/block`
const me = (token: string) => send("GET", "/api/v10/users/@me", undefined, token)

/** An ISO instant `days` after the host's clock. */
const daysLater = (days: number) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const now = yield* host.run(DateTime.now)
    return DateTime.formatIso(DateTime.add(now, { days }))
  })

describe("Account blocks", () => {
  layer(TestHost.layer({ staff: { phones: ["8 (946) 111-00-00"] } }))((it) => {
    it.effect("only staff may block: others get 403 50013, no token 401", () =>
      Effect.gen(function* () {
        const target = yield* register("+79461110001", "block_target_a")
        const other = yield* register("+79461110002", "block_other")
        const refused = yield* send("PUT", blockPath(target.user_id), { reason: "spam" }, other.access_token)
        expect(refused.status).toBe(403)
        expect(yield* json(refused)).toEqual({ code: 50013, message: "Missing Permissions" })
        expect((yield* send("DELETE", blockPath(target.user_id), undefined, other.access_token)).status).toBe(403)
        expect((yield* send("PUT", blockPath(target.user_id), { reason: "spam" })).status).toBe(401)
        expect((yield* me(target.access_token)).status).toBe(200)
      })
    )

    it.effect(
      "a block answers 403 40007 with reason and term on every request, and refuses login, refresh and recovery",
      () =>
        Effect.gen(function* () {
          const staff = yield* register(STAFF_PHONE, "platform_staff")
          const phone = "+79461110003"
          const target = yield* register(phone, "block_target_b")
          const until = yield* daysLater(7)
          const blocked = yield* send("PUT", blockPath(target.user_id), { reason: "spam", until }, staff.access_token)
          expect(blocked.status).toBe(200)
          expect(yield* json(blocked)).toMatchObject({
            user_id: target.user_id,
            reason: "spam",
            until,
            blocked_by: staff.user_id
          })

          const answer = yield* me(target.access_token)
          expect(answer.status).toBe(403)
          const body = (yield* json(answer)) as { code: number; message: string }
          expect(body.code).toBe(40007)
          expect(body.message).toContain("spam")
          expect(body.message).toContain(until)
          expect((yield* send("GET", "/api/v10/auth/sessions", undefined, target.access_token)).status).toBe(403)

          const refreshed = yield* post("/api/v10/auth/refresh", { refresh_token: target.refresh_token })
          expect(refreshed.status).toBe(403)
          expect(yield* json(refreshed)).toMatchObject({ code: 40007 })
          const loggedIn = yield* login({ login: phone, password: PASSWORD })
          expect(loggedIn.status).toBe(403)
          expect(yield* json(loggedIn)).toMatchObject({ code: 40007 })
          // a wrong password stays a plain 50014: the block is not revealed to a stranger
          expect(yield* json(yield* login({ login: phone, password: "not the password" }))).toMatchObject({
            code: 50014
          })

          const started = (yield* json(
            yield* post("/api/v10/auth/recover/phone", { phone, captcha_token: "dev" }, undefined, "198.51.99.1")
          )) as { verification_id: string }
          const code = (yield* awaitMessage(phone, "recover"))?.code
          const recovered = yield* post("/api/v10/auth/recover/verify", {
            verification_id: started.verification_id,
            code,
            new_password: "a brand new password"
          })
          expect(recovered.status).toBe(403)
          expect(yield* json(recovered)).toMatchObject({ code: 40007 })

          // The term ends: logging in works again.
          const host = yield* TestHost.TestHost
          yield* host.adjustClock("7 days")
          expect((yield* login({ login: phone, password: PASSWORD })).status).toBe(200)
        })
    )

    it.effect("unblocking takes effect on the next request; a block without an end is permanent", () =>
      Effect.gen(function* () {
        const staff = (yield* json(yield* login({ login: STAFF_PHONE, password: PASSWORD }))) as {
          access_token: string
        }
        const target = yield* register("+79461110004", "block_target_c")
        expect((yield* send("PUT", blockPath(target.user_id), { reason: "fraud" }, staff.access_token)).status).toBe(
          200
        )
        const body = (yield* json(yield* me(target.access_token))) as { message: string }
        expect(body.message).toContain("fraud")
        expect(body.message).toContain("permanent")
        expect((yield* send("DELETE", blockPath(target.user_id), undefined, staff.access_token)).status).toBe(204)
        expect((yield* me(target.access_token)).status).toBe(200)
        // lifting a block that is not there is fine
        expect((yield* send("DELETE", blockPath(target.user_id), undefined, staff.access_token)).status).toBe(204)
      })
    )

    it.effect("refuses bad requests clearly", () =>
      Effect.gen(function* () {
        const staff = (yield* json(yield* login({ login: STAFF_PHONE, password: PASSWORD }))) as {
          access_token: string
          user_id: string
        }
        const target = yield* register("+79461110005", "block_target_d")
        const put = (userId: string, payload: unknown) => send("PUT", blockPath(userId), payload, staff.access_token)
        yield* expectBadTermsRefused(put, target.user_id, staff.user_id)
        const unknown = yield* put("1234567890123456789", { reason: "spam" })
        expect(unknown.status).toBe(404)
        expect(yield* json(unknown)).toEqual({ code: 10013, message: "Unknown User" })
        expect((yield* put("not-an-id", { reason: "spam" })).status).toBe(400)
        expect((yield* me(target.access_token)).status).toBe(200)
      })
    )
  })
})
