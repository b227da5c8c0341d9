/** Account deletion through HTTP: a 14-day delay, cancellable, refused while owning servers with members. */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"
import { guildWith } from "./support/Guilds.ts"

const requestDeletion = (token: string, password = PASSWORD) => post("/api/v10/users/@me/delete", { password }, token)

/** A fresh access token (the clock moves by days here; access tokens live an hour). */
const freshToken = (phone: string) =>
  Effect.map(
    Effect.flatMap(login({ login: phone, password: PASSWORD }), json),
    (pair) => (pair as { access_token: string }).access_token
  )

describe("Account deletion", () => {
  layer(TestHost.layer())((it) => {
    it.effect("starts a 14-day delay that DELETE cancels; asking twice changes nothing", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79761110001", "deleting_one")
        const token = account.access_token
        expect(yield* json(yield* send("DELETE", "/api/v10/users/@me/delete", undefined, token))).toEqual({
          status: "none",
          requested_at: null,
          delete_at: null
        })
        const wrong = yield* requestDeletion(token, "wrong password")
        expect(wrong.status).toBe(400)
        const started = yield* requestDeletion(token)
        expect(started.status).toBe(200)
        const body = (yield* json(started)) as { status: string; requested_at: string; delete_at: string }
        expect(body.status).toBe("pending")
        expect(Date.parse(body.delete_at) - Date.parse(body.requested_at)).toBe(14 * 86_400_000)
        yield* host.adjustClock("1 day")
        const later = yield* freshToken("+79761110001")
        expect(yield* json(yield* requestDeletion(later))).toEqual(body)
        const cancelled = yield* send("DELETE", "/api/v10/users/@me/delete", undefined, later)
        expect(yield* json(cancelled)).toMatchObject({ status: "cancelled" })
        yield* host.adjustClock("14 days")
        expect((yield* send("GET", "/api/v10/users/@me", undefined, yield* freshToken("+79761110001"))).status).toBe(
          200
        )
      })
    )

    it.effect("after 14 days the account is gone: sessions, login, name and phone are released", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79761110002", "deleting_two")
        yield* requestDeletion(account.access_token)
        yield* host.adjustClock("13 days")
        const token = yield* freshToken("+79761110002")
        expect((yield* send("GET", "/api/v10/users/@me", undefined, token)).status).toBe(200)
        yield* host.adjustClock("1 day")
        // the worker runs when the clock reaches the due time
        for (let i = 0; i < 20; i++) yield* Effect.yieldNow
        // 50014 (its session was ended), not 40001 (merely expired)
        expect(yield* json(yield* send("GET", "/api/v10/users/@me", undefined, token))).toMatchObject({ code: 50014 })
        expect((yield* login({ login: "+79761110002", password: PASSWORD })).status).toBe(401)
        const seen = (yield* json(
          yield* send(
            "GET",
            `/api/v10/users/${account.user_id}`,
            undefined,
            (yield* register("+79761110003", "deleting_viewer")).access_token
          )
        )) as { username: string }
        expect(seen.username).toBe(`deleted_user_${account.user_id}`)
        // the name and the number can be registered again
        const again = yield* register("+79761110002", "deleting_two")
        expect(again.user_id).not.toBe(account.user_id)
      })
    )

    it.effect("is refused while the user owns servers with other members", () =>
      Effect.gen(function* () {
        const account = yield* register("+79761110004", "deleting_owner")
        const member = yield* register("+79761110005", "deleting_member")
        yield* guildWith(account.access_token, [member.access_token])
        const refused = yield* requestDeletion(account.access_token)
        expect(refused.status).toBe(400)
        expect(yield* json(refused)).toMatchObject({
          code: 50035,
          errors: { guilds: { _errors: [{ code: "OWNS_GUILDS_WITH_MEMBERS" }] } }
        })
      })
    )
  })
})
