/** The caller's own account through HTTP: profile, settings, phone and e-mail changes, public users. */
import { describe, expect, layer } from "@effect/vitest"
import { EventBus } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { RelationshipsRepo } from "@veche/users"
import { DateTime, Effect, Fiber, Stream } from "effect"
import { awaitMessage, freshAddress, json, login, PASSWORD, post, register, send } from "./support/Accounts.ts"
import { createGuild } from "./support/Guilds.ts"

const me = (token: string) => Effect.flatMap(send("GET", "/api/v10/users/@me", undefined, token), json)
const patchMe = (token: string, body: unknown) => send("PATCH", "/api/v10/users/@me", body, token)

/** The next `n` events on the host's bus, while `action` runs. */
const eventsDuring = <A, E, R>(n: number, action: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const host = yield* TestHost.TestHost
    const bus = yield* host.run(Effect.service(EventBus.EventBus))
    const fiber = yield* bus.events.pipe(Stream.take(n), Stream.runCollect, Effect.forkChild)
    yield* Effect.yieldNow
    yield* action
    return yield* Fiber.join(fiber)
  })

describe("Profile", () => {
  layer(TestHost.layer())((it) => {
    it.effect("CurrentUser shows the masked phone, 2FA state and defaults", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661110001", "profile_one")
        expect(yield* me(account.access_token)).toMatchObject({
          id: account.user_id,
          username: "profile_one",
          global_name: null,
          phone: "+7 *** ***-**-01",
          email: null,
          verified: false,
          mfa_enabled: false,
          bio: "",
          locale: "ru",
          guild_order: []
        })
      })
    )

    it.effect("PATCH sets display name and bio; empty resets; limits are 32 and 190", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661110002", "profile_two")
        const token = account.access_token
        const [event] = yield* eventsDuring(1, patchMe(token, { display_name: "Второй", bio: "о себе" }))
        expect(event).toMatchObject({
          type: "USER_UPDATE",
          userIds: [account.user_id],
          data: { global_name: "Второй" }
        })
        expect(yield* me(token)).toMatchObject({ global_name: "Второй", bio: "о себе" })
        expect((yield* patchMe(token, { display_name: "x".repeat(32), bio: "y".repeat(190) })).status).toBe(200)
        for (const [field, value] of [
          ["display_name", "x".repeat(33)],
          ["bio", "y".repeat(191)],
          ["display_name", 5]
        ] as const) {
          const response = yield* patchMe(token, { [field]: value })
          expect(response.status).toBe(400)
          expect(yield* json(response)).toMatchObject({ code: 50035, errors: { [field]: {} } })
        }
        expect((yield* patchMe(token, { display_name: "", bio: "" })).status).toBe(200)
        expect(yield* me(token)).toMatchObject({ global_name: null, bio: "" })
        // removing images needs no upload; a broken one is refused on its field
        expect((yield* patchMe(token, { avatar: null, banner: null })).status).toBe(200)
        expect((yield* patchMe(token, { avatar: "data:image/png;base64,AAAA" })).status).toBe(400)
      })
    )

    it.effect("GET /users/{id} shows the public fields only; unknown ids are 10013", () =>
      Effect.gen(function* () {
        const viewer = yield* register("+79661110003", "profile_viewer")
        const other = yield* register("+79661110004", "profile_other")
        yield* patchMe(other.access_token, { display_name: "Other", bio: "secret-ish" })
        const seen = (yield* json(
          yield* send("GET", `/api/v10/users/${other.user_id}`, undefined, viewer.access_token)
        )) as Record<string, unknown>
        expect(seen).toMatchObject({ id: other.user_id, username: "profile_other", global_name: "Other", bot: false })
        expect(seen).not.toHaveProperty("phone")
        expect(seen).not.toHaveProperty("email")
        const unknown = yield* send("GET", "/api/v10/users/1234567890123456789", undefined, viewer.access_token)
        expect(unknown.status).toBe(404)
        expect(yield* json(unknown)).toEqual({ code: 10013, message: "Unknown User" })
      })
    )
  })
})

describe("Settings", () => {
  layer(TestHost.layer())((it) => {
    it.effect("status and custom status change; other fields are ignored; events go out", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661120001", "settings_user")
        const token = account.access_token
        expect(yield* json(yield* send("GET", "/api/v10/users/@me/settings", undefined, token))).toEqual({
          status: "online",
          custom_status: null,
          theme: "dark",
          locale: "ru"
        })
        const events = yield* eventsDuring(
          1,
          send(
            "PATCH",
            "/api/v10/users/@me/settings",
            { status: "invisible", custom_status: { text: "busy" }, theme: "light", extra: 1 },
            token
          )
        )
        // the user has no gateway session (offline): no PRESENCE_UPDATE (test/presence.test.ts covers it)
        expect(events.map((event) => event.type)).toEqual(["USER_SETTINGS_UPDATE"])
        expect(events[0]?.data).toMatchObject({ status: "invisible", custom_status: { text: "busy" } })
        expect(yield* json(yield* send("GET", "/api/v10/users/@me/settings", undefined, token))).toEqual({
          status: "invisible",
          custom_status: { text: "busy" },
          theme: "dark",
          locale: "ru"
        })
        for (const body of [{ custom_status: null }, { custom_status: { text: "" } }]) {
          yield* send("PATCH", "/api/v10/users/@me/settings", { custom_status: { text: "again" } }, token)
          const cleared = yield* send("PATCH", "/api/v10/users/@me/settings", body, token)
          expect(yield* json(cleared)).toMatchObject({ custom_status: null })
        }
        const ok = yield* send(
          "PATCH",
          "/api/v10/users/@me/settings",
          { custom_status: { text: "x".repeat(128) } },
          token
        )
        expect(ok.status).toBe(200)
        for (const body of [
          { custom_status: { text: "x".repeat(129) } },
          { custom_status: { text: "two\nlines" } },
          { status: "away" }
        ]) {
          const response = yield* send("PATCH", "/api/v10/users/@me/settings", body, token)
          expect(response.status).toBe(400)
          expect(yield* json(response)).toMatchObject({ code: 50035 })
        }
      })
    )
  })
})

describe("Phone change", () => {
  layer(TestHost.layer())((it) => {
    it.effect("password, then a code to the new number; the account moves to it", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661130001", "phone_mover")
        yield* register("+79661130009", "phone_holder")
        const token = account.access_token
        const start = (body: Record<string, unknown>) =>
          post("/api/v10/users/@me/phone", { password: PASSWORD, ...body }, token, freshAddress())
        const wrong = yield* start({ password: "not my password", phone: "+79661130002" })
        expect(wrong.status).toBe(400)
        expect(yield* json(wrong)).toMatchObject({ errors: { password: {} } })
        const taken = yield* start({ phone: "+79661130009" })
        expect(taken.status).toBe(409)
        expect((yield* start({ phone: "+1 555 0100" })).status).toBe(400)

        const started = yield* start({ phone: "8 966 113 00 02" })
        expect(started.status).toBe(200)
        const body = (yield* json(started)) as { verification_id: string }
        expect(body).toMatchObject({ phone: "+7 *** ***-**-02", expires_in: 300 })
        const code = (yield* awaitMessage("+79661130002", "change_phone"))?.code
        const bad = yield* send(
          "PUT",
          "/api/v10/users/@me/phone",
          { verification_id: body.verification_id, code: "000000" === code ? "111111" : "000000" },
          token
        )
        expect(bad.status).toBe(403)
        const done = yield* send(
          "PUT",
          "/api/v10/users/@me/phone",
          { verification_id: body.verification_id, code },
          token
        )
        expect(done.status).toBe(200)
        expect(yield* json(done)).toMatchObject({ phone: "+7 *** ***-**-02" })
        expect((yield* login({ login: "+79661130002", password: PASSWORD })).status).toBe(200)
        expect((yield* login({ login: "+79661130001", password: PASSWORD })).status).toBe(401)
      })
    )

    it.effect("shares the 3-per-hour SMS limit of the new number", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661130006", "phone_limited")
        const start = () =>
          post(
            "/api/v10/users/@me/phone",
            { password: PASSWORD, phone: "+79661130007" },
            account.access_token,
            freshAddress()
          )
        for (let i = 0; i < 3; i++) expect((yield* start()).status).toBe(200)
        const limited = yield* start()
        expect(limited.status).toBe(429)
        expect(limited.headers.get("retry-after")).not.toBeNull()
      })
    )

    it.effect("a code is bound to the account that asked for it", () =>
      Effect.gen(function* () {
        const asker = yield* register("+79661130003", "phone_asker")
        const thief = yield* register("+79661130004", "phone_thief")
        const started = (yield* json(
          yield* post(
            "/api/v10/users/@me/phone",
            { password: PASSWORD, phone: "+79661130005" },
            asker.access_token,
            freshAddress()
          )
        )) as { verification_id: string }
        const code = (yield* awaitMessage("+79661130005", "change_phone"))?.code
        const stolen = yield* send(
          "PUT",
          "/api/v10/users/@me/phone",
          { verification_id: started.verification_id, code },
          thief.access_token
        )
        expect(stolen.status).toBe(403)
        expect(yield* json(stolen)).toMatchObject({ code: 70003 })
      })
    )
  })
})

describe("E-mail binding", () => {
  layer(TestHost.layer())((it) => {
    it.effect("add sets email_pending and mails a link; following it binds; delete unbinds", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661140001", "mail_binder")
        const token = account.access_token
        const added = yield* post(
          "/api/v10/users/@me/email",
          { password: PASSWORD, email: "Binder@Example.org" },
          token
        )
        expect(added.status).toBe(200)
        expect(yield* json(added)).toMatchObject({ email: null, email_pending: "Binder@example.org", verified: false })
        const letter = yield* awaitMessage("Binder@example.org", "email_verify")
        expect((yield* post("/api/v10/auth/email/verify", { token: letter?.token })).status).toBe(200)
        const bound = (yield* me(token)) as Record<string, unknown>
        expect(bound).toMatchObject({ email: "Binder@example.org", verified: true })
        expect(bound).not.toHaveProperty("email_pending")

        const wrong = yield* send("DELETE", "/api/v10/users/@me/email", { password: "wrong password" }, token)
        expect(wrong.status).toBe(400)
        const removed = yield* send("DELETE", "/api/v10/users/@me/email", { password: PASSWORD }, token)
        expect(removed.status).toBe(200)
        expect(yield* json(removed)).toMatchObject({ email: null, verified: false })
        expect((yield* login({ email: "binder@example.org", password: PASSWORD })).status).toBe(401)
      })
    )

    it.effect("resend replaces the link; limits: one request a minute, 5 letters an hour", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const account = yield* register("+79661140002", "mail_resender")
        const token = account.access_token
        const noPending = yield* post("/api/v10/users/@me/email/resend", undefined, token)
        expect(noPending.status).toBe(400)
        expect(
          (yield* post("/api/v10/users/@me/email", { password: PASSWORD, email: "resend@example.org" }, token)).status
        ).toBe(200)
        const tooSoon = yield* post("/api/v10/users/@me/email/resend", undefined, token)
        expect(tooSoon.status).toBe(429)
        yield* host.adjustClock("1 minute")
        expect((yield* post("/api/v10/users/@me/email/resend", undefined, token)).status).toBe(200)
        const first = (yield* awaitMessage("resend@example.org", "email_verify", 1))?.token
        const second = (yield* awaitMessage("resend@example.org", "email_verify", 2))?.token
        expect((yield* post("/api/v10/auth/email/verify", { token: first })).status).toBe(403)
        for (let i = 0; i < 3; i++) {
          yield* host.adjustClock("1 minute")
          expect((yield* post("/api/v10/users/@me/email/resend", undefined, token)).status).toBe(200)
        }
        yield* host.adjustClock("1 minute")
        const sixth = yield* post("/api/v10/users/@me/email/resend", undefined, token)
        expect(sixth.status).toBe(429)
        expect(second).toBeDefined()
      })
    )

    it.effect("an address another account holds is refused on email", () =>
      Effect.gen(function* () {
        const holder = yield* register("+79661140003", "mail_holder", { email: "held@example.org" })
        const letter = yield* awaitMessage("held@example.org", "email_verify")
        yield* post("/api/v10/auth/email/verify", { token: letter?.token })
        expect(holder.user_id).toBeDefined()
        const other = yield* register("+79661140004", "mail_other")
        const response = yield* post(
          "/api/v10/users/@me/email",
          { password: PASSWORD, email: "HELD@example.org" },
          other.access_token
        )
        expect(response.status).toBe(400)
        expect(yield* json(response)).toMatchObject({
          errors: { email: { _errors: [{ code: "EMAIL_ALREADY_REGISTERED" }] } }
        })
      })
    )
  })
})

describe("Guild order", () => {
  layer(TestHost.layer())((it) => {
    it.effect("keeps the chosen order without duplicates; servers left out follow in join order", () =>
      Effect.gen(function* () {
        const account = yield* register("+79661150001", "order_user")
        const token = account.access_token
        const a = (yield* createGuild(token, "Order A")).id
        const b = (yield* createGuild(token, "Order B")).id
        const c = (yield* createGuild(token, "Order C")).id
        const d = (yield* createGuild(token, "Order D")).id
        expect(yield* me(token)).toMatchObject({ guild_order: [a, b, c, d] })
        const set = yield* send(
          "PATCH",
          "/api/v10/users/@me/guild-order",
          { guilds: [c, a, c, "1000000000000000099"] },
          token
        )
        expect(set.status).toBe(204)
        expect(yield* me(token)).toMatchObject({ guild_order: [c, a, b, d] })
        const tooMany = Array.from({ length: 201 }, (_, i) => String(2000000000000000000n + BigInt(i)))
        const refused = yield* send("PATCH", "/api/v10/users/@me/guild-order", { guilds: tooMany }, token)
        expect(refused.status).toBe(400)
        expect(yield* json(refused)).toMatchObject({ code: 50035, errors: { guilds: {} } })
        const exactly = yield* send("PATCH", "/api/v10/users/@me/guild-order", { guilds: tooMany.slice(0, 200) }, token)
        expect(exactly.status).toBe(204)
        expect((yield* send("PATCH", "/api/v10/users/@me/guild-order", { guilds: ["x"] }, token)).status).toBe(400)
        expect((yield* send("PATCH", "/api/v10/users/@me/guild-order", {}, token)).status).toBe(400)
      })
    )
  })
})

describe("Relationships", () => {
  layer(TestHost.layer())((it) => {
    it.effect("lists the caller's friends, requests and blocks in the platform's shape", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const me = yield* register("+79661160001", "rel_me")
        const friend = yield* register("+79661160002", "rel_friend")
        const asker = yield* register("+79661160003", "rel_asker")
        expect(yield* json(yield* send("GET", "/api/v10/users/@me/relationships", undefined, me.access_token))).toEqual(
          []
        )
        yield* host.run(
          Effect.gen(function* () {
            const repo = yield* RelationshipsRepo.RelationshipsRepo
            const now = yield* DateTime.now
            yield* repo.put({
              userId: me.user_id as never,
              otherId: friend.user_id as never,
              type: 1,
              nickname: "Друг",
              since: now
            })
            yield* repo.put({
              userId: me.user_id as never,
              otherId: asker.user_id as never,
              type: 3,
              nickname: null,
              since: now
            })
            yield* repo.put({
              userId: friend.user_id as never,
              otherId: me.user_id as never,
              type: 1,
              nickname: null,
              since: now
            })
          })
        )
        const mine = (yield* json(
          yield* send("GET", "/api/v10/users/@me/relationships", undefined, me.access_token)
        )) as Array<{
          id: string
          type: number
          nickname: string | null
          user: { id: string; username: string }
        }>
        expect(mine.map((row) => [row.id, row.type, row.nickname, row.user.username])).toEqual([
          [friend.user_id, 1, "Друг", "rel_friend"],
          [asker.user_id, 3, null, "rel_asker"]
        ])
        expect((yield* send("GET", "/api/v10/users/@me/relationships")).status).toBe(401)
      })
    )
  })
})

describe("Profile events reach friends and servers", () => {
  layer(TestHost.layer())((it) => {
    it.effect(
      "USER_UPDATE goes to the user and friends, GUILD_MEMBER_UPDATE to the servers; settings to the user",
      () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const me = yield* register("+79661170001", "events_me")
          const friend = yield* register("+79661170002", "events_friend")
          const guild = (yield* createGuild(me.access_token, "Events")).id
          yield* host.run(
            Effect.gen(function* () {
              const now = yield* DateTime.now
              yield* (yield* RelationshipsRepo.RelationshipsRepo).put({
                userId: me.user_id as never,
                otherId: friend.user_id as never,
                type: 1,
                nickname: null,
                since: now
              })
            })
          )
          const [userUpdate, memberUpdate] = yield* eventsDuring(2, patchMe(me.access_token, { bio: "hi" }))
          expect(userUpdate).toMatchObject({ type: "USER_UPDATE", userIds: [me.user_id, friend.user_id] })
          expect(memberUpdate).toMatchObject({ type: "GUILD_MEMBER_UPDATE", guildIds: [guild] })
          // offline (no gateway session): the settings reach the user alone; presence follows only for
          // an online user (test/presence.test.ts)
          const [settings] = yield* eventsDuring(
            1,
            send("PATCH", "/api/v10/users/@me/settings", { status: "dnd" }, me.access_token)
          )
          expect(settings).toMatchObject({ type: "USER_SETTINGS_UPDATE", userIds: [me.user_id] })
        })
    )
  })
})
