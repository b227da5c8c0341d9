/**
 * GET /users/@me on PostgreSQL, where the token's lookup reads the account and the guild order in
 * the same statement (PgSessionsRepo with `withAccount`): its answer must be what CurrentUser reads
 * apart (the route's other path, taken on every other host), for an account with every part set.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Sessions } from "@veche/auth"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { CurrentUser } from "@veche/users"
import { Effect, Layer, Redacted } from "effect"
import { json, register, send } from "~/test/support/Accounts"
import { createGuild } from "~/test/support/Guilds"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("GET /users/@me (PostgreSQL, one statement)", () => {
  const repositories = PgRepositories.layer.pipe(
    Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))),
    Layer.orDie
  )
  layer(TestHost.layer({ rateLimits: { enabled: false }, repositories }), { timeout: "60 seconds" })((it) => {
    it.effect("answers what CurrentUser reads apart: profile, masked phone, guild order over joined guilds", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const me = yield* register("+79671300001", "me_one_statement")
        const token = me.access_token
        const first = yield* createGuild(token, "First")
        const second = yield* createGuild(token, "Second")
        const third = yield* createGuild(token, "Third")
        // a chosen order naming one of the three (and one the user is not in): the rest follow by join
        const ordered = yield* send(
          "PATCH",
          "/api/v10/users/@me/guild-order",
          { guilds: [third.id, "1311000000000000777"] },
          token
        )
        expect(ordered.status).toBe(204)
        expect((yield* send("PATCH", "/api/v10/users/@me", { bio: "about me" }, token)).status).toBe(200)

        const answered = yield* send("GET", "/api/v10/users/@me", undefined, token)
        expect(answered.status).toBe(200)
        const body = (yield* json(answered)) as Record<string, unknown>
        expect(body).toMatchObject({
          username: "me_one_statement",
          bio: "about me",
          guild_order: [third.id, first.id, second.id]
        })
        expect(body.phone).toMatch(/\*/)
        const apart = yield* host.run(
          Effect.flatMap(Effect.service(CurrentUser.CurrentUser), (current) =>
            current.view(Snowflake.Snowflake.make(String(body.id)), false)
          )
        )
        expect(body).toEqual(JSON.parse(JSON.stringify(apart)))
      })
    )

    it.effect("a live session of an account whose user row is gone answers 404 10013", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const orphan = yield* host.run(
          Effect.flatMap(Effect.service(Sessions.Sessions), (sessions) =>
            sessions.start(Snowflake.Snowflake.make("1311000000000000098"), {
              userAgent: null,
              address: null,
              country: null
            })
          )
        )
        const gone = yield* send("GET", "/api/v10/users/@me", undefined, Redacted.value(orphan.accessToken))
        expect(gone.status).toBe(404)
        expect(yield* json(gone)).toEqual({ code: 10013, message: "Unknown User" })
      })
    )
  })
})
