/** Users routes that the spec marks "users only" refuse bots with 20001; GET /users/@me answers them. */
import { describe, expect, layer } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Authenticator } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { UsersRepo } from "@veche/users"
import { DateTime, Effect } from "effect"

const botId = Snowflake.Snowflake.make("1311000000000000071")
const authenticator = Authenticator.Authenticator.layerStatic([
  { scheme: "Bot", token: "MTMx.users-bot", principal: { kind: "bot", userId: botId } }
])

const asBot = (method: string, path: string, body?: unknown) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.fetch(path, {
      method,
      headers: {
        authorization: "Bot MTMx.users-bot",
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

describe("Users routes and bots", () => {
  layer(TestHost.layer({ authenticator }))((it) => {
    it.effect("users-only routes answer 20001; GET /users/@me shows the bot", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        yield* host.run(
          Effect.flatMap(DateTime.now, (now) =>
            Effect.flatMap(Effect.service(UsersRepo.UsersRepo), (users) =>
              users.insert({ id: botId, username: "helper_bot", displayName: null, createdAt: now })
            )
          )
        )
        const me = yield* asBot("GET", "/api/v10/users/@me")
        expect(me.status).toBe(200)
        expect(yield* Effect.promise(() => me.json())).toMatchObject({ id: botId, bot: true })
        for (const [method, path, body] of [
          ["PATCH", "/api/v10/users/@me", { bio: "x" }],
          ["GET", "/api/v10/users/@me/settings", undefined],
          ["PATCH", "/api/v10/users/@me/settings", { status: "idle" }],
          ["POST", "/api/v10/users/@me/delete", { password: "x" }],
          ["POST", "/api/v10/users/@me/export", undefined],
          ["GET", "/api/v10/users/@me/relationships", undefined]
        ] as const) {
          const response = yield* asBot(method, path, body)
          expect(response.status).toBe(403)
          expect(yield* Effect.promise(() => response.json())).toEqual({
            code: 20001,
            message: "Bots cannot use this endpoint"
          })
        }
      })
    )
  })
})
