/** GET /users/@me through HTTP, as bot libraries call it (they percent-encode the @). */
import { REST } from "@discordjs/rest"
import { describe, expect, layer } from "@effect/vitest"
import { Sessions } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { UsersRepo } from "@veche/users"
import { Routes } from "discord-api-types/v10"
import { DateTime, Effect, Redacted } from "effect"

const json = (response: Response) => Effect.promise(() => response.json() as Promise<unknown>)

describe("GET /users/@me", () => {
  layer(TestHost.layer())((it) => {
    const signUp = (username: string, displayName: string | null) =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        return yield* host.run(
          Effect.gen(function* () {
            const ids = yield* Snowflake.SnowflakeGenerator
            const id = yield* ids.next
            yield* (yield* UsersRepo.UsersRepo).insert({ id, username, displayName, createdAt: yield* DateTime.now })
            const pair = yield* (yield* Sessions.Sessions).start(id, { userAgent: null, address: null, country: null })
            return { id, access: Redacted.value(pair.accessToken) }
          })
        )
      })

    it.effect("answers the caller's user in the platform's shape, at @me and at %40me", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const alice = yield* signUp("alice", "Alice")
        for (const path of ["/api/v10/users/@me", "/api/v10/users/%40me", "/api/v9/users/%40me"]) {
          const response = yield* host.fetch(path, { headers: { authorization: `Bearer ${alice.access}` } })
          expect(response.status).toBe(200)
          expect(yield* json(response)).toEqual({
            id: alice.id,
            username: "alice",
            discriminator: "0",
            global_name: "Alice",
            avatar: null,
            banner: null,
            accent_color: null,
            avatar_decoration_data: null,
            public_flags: 0,
            bot: false,
            bio: "",
            flags: 0,
            premium_type: 0,
            mfa_enabled: false,
            locale: "ru",
            verified: false,
            email: null,
            phone: null,
            guild_order: []
          })
        }
        // the id is a real snowflake: a library can read the account's creation time from it
        expect(Snowflake.createdAt(alice.id).getTime()).toBe(TestHost.START_TIME)
      })
    )

    it.effect("@discordjs/rest reads it with a user token", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const carol = yield* signUp("carol", "Carol")
        const seen: Array<string> = []
        const rest = new REST({
          version: "10",
          api: `${TestHost.BASE_URL}/api`,
          authPrefix: "Bearer",
          makeRequest: (url, init) => {
            seen.push(new URL(url).pathname)
            // undici's RequestInit type differs from the DOM one in details the test host ignores
            return host.fetchPromise(url, init as unknown as RequestInit)
          }
        }).setToken(carol.access)
        const me = (yield* Effect.promise(() => rest.get(Routes.user()))) as { id: string; username: string }
        expect(me).toMatchObject({ id: carol.id, username: "carol" })
        expect(seen).toHaveLength(1)
        expect(seen[0]).toMatch(/^\/api\/v10\/users\/(@|%40)me$/)
      })
    )

    it.effect("each token sees its own user", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const bob = yield* signUp("bob", null)
        const body = (yield* json(
          yield* host.fetch("/api/v10/users/@me", { headers: { authorization: `Bearer ${bob.access}` } })
        )) as { id: string; global_name: unknown }
        expect(body.id).toBe(bob.id)
        expect(body.global_name).toBeNull()
      })
    )

    it.effect("without a token answers 401 40001; with a token of a deleted account, 404 10013", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const anonymous = yield* host.fetch("/api/v10/users/@me")
        expect(anonymous.status).toBe(401)
        expect(yield* json(anonymous)).toEqual({ code: 40001, message: "Unauthorized" })
        const orphan = yield* host.run(
          Effect.flatMap(Effect.service(Sessions.Sessions), (sessions) =>
            sessions.start(Snowflake.Snowflake.make("1311000000000000099"), {
              userAgent: null,
              address: null,
              country: null
            })
          )
        )
        const gone = yield* host.fetch("/api/v10/users/@me", {
          headers: { authorization: `Bearer ${Redacted.value(orphan.accessToken)}` }
        })
        expect(gone.status).toBe(404)
        expect(yield* json(gone)).toEqual({ code: 10013, message: "Unknown User" })
      })
    )
  })
})
