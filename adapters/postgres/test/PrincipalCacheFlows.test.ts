/**
 * Review of the principal cache (issue 22) on one node over PostgreSQL: after each change that
 * `GET /users/@me` or the token check shows, the very next request on the node that made it shows
 * it (each token's answer is warmed into the cache first).
 */
import { describe, expect, layer } from "@effect/vitest"
import { OtplibTotpCodes } from "@veche/otplib"
import { TestHost } from "@veche/test-host"
import { Clock, Effect, Layer, Redacted } from "effect"
import { json, PASSWORD, post, register, send } from "~/test/support/Accounts"
import { accept, createGuild, inviteTo } from "~/test/support/Guilds"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL
let counter = 0
const phone = () => `+7946557${String((process.pid * 10 + ++counter) % 10_000).padStart(4, "0")}`
const name = (what: string) => `${what}_${process.pid % 100_000}_${counter}`
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

interface Me {
  readonly guild_order: ReadonlyArray<string>
  readonly mfa_enabled: boolean
  readonly email_pending?: string
}

/** @me twice (the second from the cache when it keeps it): both answers must agree. */
const me = (token: string) =>
  Effect.gen(function* () {
    const first = yield* send("GET", "/api/v10/users/@me", undefined, token)
    const second = yield* send("GET", "/api/v10/users/@me", undefined, token)
    expect(second.status).toBe(first.status)
    if (first.status !== 200) return first.status
    const body = (yield* json(first)) as Me
    expect(yield* json(second)).toEqual(body)
    return body
  })

describe.runIf(url !== undefined && url !== "")("PrincipalCache review: one node's own writes (PostgreSQL)", () => {
  const repositories = PgRepositories.layer.pipe(
    Layer.provideMerge(PgTestSchema.layer(Redacted.make(url ?? ""))),
    Layer.orDie
  )
  layer(TestHost.layer({ rateLimits: { enabled: false }, repositories }), { timeout: "60 seconds" })((it) => {
    it.effect("guild create, join, leave and delete show in guild_order at once", () =>
      Effect.gen(function* () {
        const owner = yield* register(phone(), name("owner"))
        const member = yield* register(phone(), name("member"))
        expect(((yield* me(owner.access_token)) as Me).guild_order).toEqual([])
        expect(((yield* me(member.access_token)) as Me).guild_order).toEqual([])
        const guild = yield* createGuild(owner.access_token)
        expect(((yield* me(owner.access_token)) as Me).guild_order).toEqual([guild.id])
        const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
        expect((yield* accept(member.access_token, code)).status).toBe(200)
        expect(((yield* me(member.access_token)) as Me).guild_order).toEqual([guild.id])
        expect(
          (yield* send("DELETE", `/api/v10/users/@me/guilds/${guild.id}`, undefined, member.access_token)).status
        ).toBe(204)
        expect(((yield* me(member.access_token)) as Me).guild_order).toEqual([])
        expect((yield* accept(member.access_token, code)).status).toBe(200)
        expect(((yield* me(member.access_token)) as Me).guild_order).toEqual([guild.id])
        // the members' rows go by ON DELETE CASCADE
        expect((yield* send("DELETE", `/api/v10/guilds/${guild.id}`, undefined, owner.access_token)).status).toBe(204)
        expect(((yield* me(owner.access_token)) as Me).guild_order).toEqual([])
        expect(((yield* me(member.access_token)) as Me).guild_order).toEqual([])
      })
    )

    it.effect("2FA on and off, an address waiting for confirmation: at once", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const user = yield* register(phone(), name("mfa"))
        expect(((yield* me(user.access_token)) as Me).mfa_enabled).toBe(false)
        const now = yield* host.run(Clock.currentTimeMillis)
        const enabled = yield* post(
          "/api/v10/auth/mfa/totp",
          { password: PASSWORD, secret: SECRET, code: OtplibTotpCodes.codeAt(SECRET, now) },
          user.access_token
        )
        expect(enabled.status).toBe(200)
        const codes = ((yield* json(enabled)) as { backup_codes: ReadonlyArray<string> }).backup_codes
        expect(((yield* me(user.access_token)) as Me).mfa_enabled).toBe(true)
        const disabled = yield* send("DELETE", "/api/v10/auth/mfa/totp", { code: codes[0] }, user.access_token)
        expect(disabled.status).toBe(204)
        expect(((yield* me(user.access_token)) as Me).mfa_enabled).toBe(false)

        expect(((yield* me(user.access_token)) as Me).email_pending).toBeUndefined()
        const added = yield* post(
          "/api/v10/users/@me/email",
          { password: PASSWORD, email: `${name("e")}@example.com` },
          user.access_token
        )
        expect(added.status).toBeLessThan(300)
        expect(((yield* me(user.access_token)) as Me).email_pending).toBe(`${name("e")}@example.com`)
      })
    )

    it.effect("a refresh token used twice ends the session: its access token is refused at once", () =>
      Effect.gen(function* () {
        const user = yield* register(phone(), name("reuse"))
        expect(yield* me(user.access_token)).not.toBe(401)
        const rotated = yield* post("/api/v10/auth/refresh", { refresh_token: user.refresh_token })
        expect(rotated.status).toBe(200)
        const pair = (yield* json(rotated)) as { access_token: string }
        expect(yield* me(pair.access_token)).not.toBe(401)
        // the old access token went with the rotation
        expect(yield* me(user.access_token)).toBe(401)
        const reused = yield* post("/api/v10/auth/refresh", { refresh_token: user.refresh_token })
        expect(reused.status).toBe(401)
        expect(yield* me(pair.access_token)).toBe(401)
      })
    )

    it.effect("a deletion request leaves the sessions as the database has them (a grace period)", () =>
      Effect.gen(function* () {
        const user = yield* register(phone(), name("del"))
        expect(yield* me(user.access_token)).not.toBe(401)
        const deletion = yield* post("/api/v10/users/@me/delete", { password: PASSWORD }, user.access_token)
        expect(deletion.status).toBe(200)
        expect(yield* me(user.access_token)).not.toBe(401)
      })
    )
  })
})
