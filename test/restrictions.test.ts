/**
 * Account restrictions through HTTP: staff restrict and lift; a restriction is a shadow one (the
 * account logs in and works as before) that `Moderation.restriction` reports while its term lasts.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Moderation } from "@veche/moderation"
import { Snowflake } from "@veche/platform"
import { Authenticator } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"
import { expectBadTermsRefused } from "./support/ModerationTerms.ts"

const STAFF_PHONE = "+79462220000"

const restrictionPath = (userId: string) => `/api/v10/moderation/users/${userId}/restriction`
const me = (token: string) => send("GET", "/api/v10/users/@me", undefined, token)

/** An ISO instant `days` after the host's clock. */
const daysLater = (days: number) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const now = yield* host.run(DateTime.now)
    return DateTime.formatIso(DateTime.add(now, { days }))
  })

/** What the domain (the guilds side, before an invitation is accepted) sees for this account. */
const activeRestriction = (userId: string) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(
      Effect.flatMap(Effect.service(Moderation.Moderation), (moderation) =>
        moderation.restriction(Snowflake.Snowflake.make(userId))
      )
    )
  )

const staffToken = Effect.map(
  Effect.flatMap(login({ login: STAFF_PHONE, password: PASSWORD }), json),
  (body) => body as { access_token: string; user_id: string }
)

describe("Account restrictions", () => {
  layer(TestHost.layer({ staff: { phones: ["8 (946) 222-00-00"] } }))((it) => {
    it.effect("only staff may restrict: others get 403 50013, no token 401", () =>
      Effect.gen(function* () {
        yield* register(STAFF_PHONE, "restrict_staff")
        const target = yield* register("+79462220001", "restrict_target_a")
        const other = yield* register("+79462220002", "restrict_other")
        const refused = yield* send("PUT", restrictionPath(target.user_id), { reason: "spam" }, other.access_token)
        expect(refused.status).toBe(403)
        expect(yield* json(refused)).toEqual({ code: 50013, message: "Missing Permissions" })
        const lift = yield* send("DELETE", restrictionPath(target.user_id), undefined, other.access_token)
        expect(lift.status).toBe(403)
        expect(yield* json(lift)).toEqual({ code: 50013, message: "Missing Permissions" })
        expect((yield* send("PUT", restrictionPath(target.user_id), { reason: "spam" })).status).toBe(401)
        expect((yield* send("DELETE", restrictionPath(target.user_id))).status).toBe(401)
        expect(Option.isNone(yield* activeRestriction(target.user_id))).toBe(true)
      })
    )

    it.effect("a restriction is a shadow one: the account works as before, the domain sees it until its term", () =>
      Effect.gen(function* () {
        const staff = yield* staffToken
        const phone = "+79462220003"
        const target = yield* register(phone, "restrict_target_b")
        const until = yield* daysLater(7)
        const restricted = yield* send(
          "PUT",
          restrictionPath(target.user_id),
          { reason: "spam", until },
          staff.access_token
        )
        expect(restricted.status).toBe(200)
        const body = (yield* json(restricted)) as Record<string, unknown>
        expect(body).toEqual({
          user_id: target.user_id,
          reason: "spam",
          until,
          restricted_by: staff.user_id,
          created_at: expect.any(String)
        })
        expect(Object.keys(body).sort()).toEqual(["created_at", "reason", "restricted_by", "until", "user_id"])

        // nothing shows to the account itself: its token, refresh and login work
        expect((yield* me(target.access_token)).status).toBe(200)
        expect((yield* send("GET", "/api/v10/auth/sessions", undefined, target.access_token)).status).toBe(200)
        expect((yield* post("/api/v10/auth/refresh", { refresh_token: target.refresh_token })).status).toBe(200)
        expect((yield* login({ login: phone, password: PASSWORD })).status).toBe(200)

        const active = yield* activeRestriction(target.user_id)
        expect(Option.getOrThrow(active)).toMatchObject({
          userId: target.user_id,
          reason: "spam",
          restrictedBy: staff.user_id
        })

        // setting it again replaces it
        const permanent = yield* send(
          "PUT",
          restrictionPath(target.user_id),
          { reason: "fraud", until: null },
          staff.access_token
        )
        expect(permanent.status).toBe(200)
        expect(yield* json(permanent)).toMatchObject({ reason: "fraud", until: null })
        expect(
          (yield* send("PUT", restrictionPath(target.user_id), { reason: "spam", until }, staff.access_token)).status
        ).toBe(200)

        // the term ends: the domain no longer sees it
        const host = yield* TestHost.TestHost
        yield* host.adjustClock("7 days")
        expect(Option.isNone(yield* activeRestriction(target.user_id))).toBe(true)
      })
    )

    it.effect(
      "lifting takes effect at once; lifting one that is not there answers 204; a restriction without an end is permanent",
      () =>
        Effect.gen(function* () {
          const staff = yield* staffToken
          const target = yield* register("+79462220004", "restrict_target_c")
          expect(
            (yield* send("PUT", restrictionPath(target.user_id), { reason: "fraud" }, staff.access_token)).status
          ).toBe(200)
          const host = yield* TestHost.TestHost
          yield* host.adjustClock("30 days")
          expect(Option.getOrThrow(yield* activeRestriction(target.user_id))).toMatchObject({
            reason: "fraud",
            until: null
          })
          // a month on, the staff member's access token has expired: a fresh one
          const later = yield* staffToken
          const lifted = yield* send("DELETE", restrictionPath(target.user_id), undefined, later.access_token)
          expect(lifted.status).toBe(204)
          expect(Option.isNone(yield* activeRestriction(target.user_id))).toBe(true)
          expect((yield* send("DELETE", restrictionPath(target.user_id), undefined, later.access_token)).status).toBe(
            204
          )
        })
    )

    it.effect("refuses bad requests clearly", () =>
      Effect.gen(function* () {
        const staff = yield* staffToken
        const target = yield* register("+79462220005", "restrict_target_d")
        const put = (userId: string, payload: unknown) =>
          send("PUT", restrictionPath(userId), payload, staff.access_token)
        yield* expectBadTermsRefused(put, target.user_id, staff.user_id)
        expect((yield* put(target.user_id, { reason: "x".repeat(200) })).status).toBe(200)
        for (const response of [
          yield* put("1234567890123456789", { reason: "spam" }),
          yield* send("DELETE", restrictionPath("1234567890123456789"), undefined, staff.access_token)
        ]) {
          expect(response.status).toBe(404)
          expect(yield* json(response)).toEqual({ code: 10013, message: "Unknown User" })
        }
        expect((yield* put("not-an-id", { reason: "spam" })).status).toBe(400)
      })
    )
  })
})

const staffId = Snowflake.Snowflake.make("1311000000000000081")
const targetId = Snowflake.Snowflake.make("1311000000000000082")
const botId = Snowflake.Snowflake.make("1311000000000000083")
const authenticator = Authenticator.Authenticator.layerStatic([
  { scheme: "Bearer", token: "staff-token", principal: { kind: "user", userId: staffId } },
  { scheme: "Bot", token: "MTMx.restrict-bot", principal: { kind: "bot", userId: botId } }
])

const as = (authorization: string, method: string, path: string, body?: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

describe("Account restrictions: staff by id, and bots", () => {
  layer(TestHost.layer({ authenticator, staff: { userIds: [staffId] } }))((it) => {
    it.effect("staff listed by id restrict; bots answer 20001 even when listed", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        yield* host.run(
          Effect.gen(function* () {
            const users = yield* UsersRepo.UsersRepo
            const now = yield* DateTime.now
            for (const [id, username] of [
              [staffId, "restrict_staff_by_id"],
              [targetId, "restrict_target_by_id"],
              [botId, "restrict_bot"]
            ] as const) {
              yield* users.insert({ id, username, displayName: null, createdAt: now })
            }
          })
        )
        for (const [method, body] of [
          ["PUT", { reason: "spam" }],
          ["DELETE", undefined]
        ] as const) {
          const response = yield* as("Bot MTMx.restrict-bot", method, restrictionPath(targetId), body)
          expect(response.status).toBe(403)
          expect(yield* json(response)).toEqual({ code: 20001, message: "Bots cannot use this endpoint" })
        }
        expect(Option.isNone(yield* activeRestriction(targetId))).toBe(true)

        const restricted = yield* as("Bearer staff-token", "PUT", restrictionPath(targetId), { reason: "spam" })
        expect(restricted.status).toBe(200)
        expect(yield* json(restricted)).toMatchObject({
          user_id: targetId,
          reason: "spam",
          until: null,
          restricted_by: staffId
        })
        expect(Option.isSome(yield* activeRestriction(targetId))).toBe(true)
        expect((yield* as("Bearer staff-token", "DELETE", restrictionPath(targetId))).status).toBe(204)
        expect(Option.isNone(yield* activeRestriction(targetId))).toBe(true)
      })
    )
  })
})
