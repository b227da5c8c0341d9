/**
 * Input the schemas must refuse at the boundary, through HTTP, as one set of scenarios any test host
 * can run: test/boundary.test.ts runs them on memory, adapters/postgres/test/BoundaryRoutes.test.ts
 * on PostgreSQL (where a NUL byte, an id past 2^63−1 or a number past the int column's range that
 * got through would end in a 500). Every refusal is 400 50035 naming the field.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, post, register, send } from "./Accounts.ts"
import { createGuild } from "./Guilds.ts"

interface FormError {
  readonly code: number
  readonly errors?: Record<string, unknown>
}

/** 400 50035 whose errors tree has `_errors` at `path`; answers that node's codes. */
export const expectFormError = (response: Response, path: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const body = (yield* json(response)) as FormError
    expect({ status: response.status, code: body.code }).toEqual({ status: 400, code: 50035 })
    let node: unknown = body.errors
    for (const key of path) node = (node as Record<string, unknown> | undefined)?.[key]
    const leaves = (node as { _errors?: ReadonlyArray<{ code: string }> } | undefined)?._errors
    expect({ path, leaves }).toEqual({ path, leaves: expect.any(Array) })
    return (leaves ?? []).map((leaf) => leaf.code)
  })

/**
 * The request of issue 16's ReDoS, grown to just under the 1 MiB body limit: an address over its
 * 254-character limit whose dots made the old pattern backtrack quadratically (80 KB blocked the
 * event loop for 15 s; this one would for most of an hour).
 */
export const REDOS_EMAIL = `a@${".".repeat(1_000_000)}\n@`

export const boundaryScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () => TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() })
  const patch = (path: string, body: unknown, token: string) => send("PATCH", path, body, token)

  let phone = 79671000000
  const user = (name: string) => register(`+${++phone}`, `${name}_${phone % 100000}`)

  describe("E-mail fields", () => {
    layer(host())((it) => {
      it.effect("a megabyte of dots answers 50035 at once: the length check fails, the pattern never runs", () =>
        Effect.gen(function* () {
          const account = yield* user("redos")
          const requests = [
            post("/api/v10/auth/recover/email", { email: REDOS_EMAIL, captcha_token: "dev" }),
            post("/api/v10/auth/register/email", { email: REDOS_EMAIL, captcha_token: "dev" }),
            post("/api/v10/auth/register/verify", {
              verification_id: "1",
              code: "123456",
              username: "someone",
              password: "long enough password",
              date_of_birth: "1990-01-01",
              consent: true,
              email: REDOS_EMAIL
            }),
            post(
              "/api/v10/users/@me/email",
              { password: "long enough password", email: REDOS_EMAIL },
              account.access_token
            )
          ]
          for (const request of requests) {
            // Only the length error: a pattern after it would have run over the whole megabyte.
            expect(yield* expectFormError(yield* request, ["email"])).toEqual(["BASE_TYPE_MAX_LENGTH"])
          }
        })
      )

      it.effect("an address of the 254 allowed characters built to backtrack is checked in linear time", () =>
        Effect.gen(function* () {
          const crafted = `a@${".".repeat(249)}\n@`
          expect(crafted.length).toBeLessThanOrEqual(254)
          const response = yield* post("/api/v10/auth/recover/email", { email: crafted, captcha_token: "dev" })
          expect(yield* expectFormError(response, ["email"])).toEqual(["EMAIL_TYPE_INVALID_EMAIL"])
          // What the old pattern accepted still passes.
          for (const email of ["a@b.c", " a@.b.c ", "x@a.b.c", "a@b.."]) {
            const ok = yield* post("/api/v10/auth/recover/email", { email, captcha_token: "dev" })
            expect({ email, status: ok.status }).toEqual({ email, status: 200 })
          }
        })
      )
    })
  })

  describe("Lists in guild, channel, role and member bodies", () => {
    layer(host())((it) => {
      it.effect("each list is capped as the platform caps it: one more answers 50035 BASE_TYPE_MAX_LENGTH", () =>
        Effect.gen(function* () {
          const { access_token: token, user_id: userId } = yield* user("lists")
          const guild = yield* createGuild(token, "Lists")
          const overwrites = (n: number) =>
            Array.from({ length: n }, (_, i) => ({ id: String(100_000_000_000_000_000n + BigInt(i)), type: 1 }))
          const tooLong = ["BASE_TYPE_MAX_LENGTH"]
          const created = yield* post(
            `/api/v10/guilds/${guild.id}/channels`,
            { name: "many", permission_overwrites: overwrites(101) },
            token
          )
          expect(yield* expectFormError(created, ["permission_overwrites"])).toEqual(tooLong)
          const edited = yield* patch(
            `/api/v10/channels/${guild.system_channel_id}`,
            { permission_overwrites: overwrites(101) },
            token
          )
          expect(yield* expectFormError(edited, ["permission_overwrites"])).toEqual(tooLong)
          const roles = yield* patch(
            `/api/v10/guilds/${guild.id}/roles`,
            Array.from({ length: 251 }, () => ({ id: guild.roles[0]?.id, position: 0 })),
            token
          )
          expect(yield* expectFormError(roles, [])).toEqual(tooLong)
          const channels = yield* patch(
            `/api/v10/guilds/${guild.id}/channels`,
            Array.from({ length: 501 }, () => ({ id: guild.system_channel_id, position: 0 })),
            token
          )
          expect(yield* expectFormError(channels, [])).toEqual(tooLong)
          const member = yield* patch(
            `/api/v10/guilds/${guild.id}/members/${userId}`,
            { roles: Array.from({ length: 251 }, () => guild.roles[0]?.id) },
            token
          )
          expect(yield* expectFormError(member, ["roles"])).toEqual(tooLong)
          const features = yield* patch(
            `/api/v10/guilds/${guild.id}`,
            { features: Array.from({ length: 101 }, () => "COMMUNITY") },
            token
          )
          expect(yield* expectFormError(features, ["features"])).toEqual(tooLong)
          // At the cap the list is read (and the request judged on its content).
          const atCap = yield* patch(
            `/api/v10/guilds/${guild.id}/channels`,
            Array.from({ length: 500 }, () => ({ id: guild.system_channel_id, position: 0 })),
            token
          )
          expect(atCap.status).not.toBe(500)
          if (atCap.status === 400)
            expect(yield* json(atCap)).not.toMatchObject({ errors: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH" }] } })
        })
      )

      it.effect("an overlong list answers only its length: no item of it is checked (issue 16)", () =>
        Effect.gen(function* () {
          const { access_token: token, user_id: userId } = yield* user("longlists")
          const guild = yield* createGuild(token, "Long lists")
          const tooLong = (max: number, path: ReadonlyArray<string>) => {
            let errors: Record<string, unknown> = {
              _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${max} or fewer in length.` }]
            }
            for (const key of [...path].reverse()) errors = { [key]: errors }
            return { code: 50035, message: "Invalid Form Body", errors }
          }
          // One over the cap, every item valid: the answer is the one length error, as it always was.
          const member = yield* patch(
            `/api/v10/guilds/${guild.id}/members/${userId}`,
            { roles: Array.from({ length: 251 }, () => guild.roles[0]?.id) },
            token
          )
          expect({ status: member.status, body: yield* json(member) }).toEqual({
            status: 400,
            body: tooLong(250, ["roles"])
          })
          const order = yield* patch("/api/v10/users/@me/guild-order", { guilds: Array(201).fill(guild.id) }, token)
          expect(yield* json(order)).toEqual(tooLong(200, ["guilds"]))
          // Far over the cap with items of the wrong kind: before, every item was decoded first and
          // the answer listed item errors up to the 100-error cap beside the length error.
          const wrong = Array(100_000).fill(7)
          const cases = [
            [`/api/v10/guilds/${guild.id}/members/${userId}`, { roles: wrong }, 250, ["roles"]],
            [`/api/v10/guilds/${guild.id}/roles`, wrong, 250, []],
            [`/api/v10/guilds/${guild.id}/channels`, wrong, 500, []],
            [
              `/api/v10/channels/${guild.system_channel_id}`,
              { permission_overwrites: wrong },
              100,
              ["permission_overwrites"]
            ],
            [`/api/v10/guilds/${guild.id}`, { features: wrong }, 100, ["features"]],
            ["/api/v10/users/@me/guild-order", { guilds: wrong }, 200, ["guilds"]]
          ] as const
          for (const [path, body, max, at] of cases) {
            const response = yield* patch(path, body, token)
            expect({ path, status: response.status, body: yield* json(response) }).toEqual({
              path,
              status: 400,
              body: tooLong(max, at)
            })
          }
          // Within the cap, items are still checked one by one.
          const short = yield* patch(`/api/v10/guilds/${guild.id}/members/${userId}`, { roles: [7] }, token)
          expect(yield* expectFormError(short, ["roles", "0"])).toHaveLength(1)
        })
      )
    })
  })

  describe("A guild deleted while things are added to it", () => {
    layer(host())((it) => {
      it.effect(
        "role, channel and invite creations racing DELETE /guilds answer success or 10004/10003, never 500",
        () =>
          Effect.gen(function* () {
            const { access_token: token } = yield* user("racer")
            const outcomes = new Set<string>()
            for (let trial = 0; trial < 4; trial++) {
              const guild = yield* createGuild(token, `Doomed ${trial}`)
              const responses = yield* Effect.all(
                [
                  send("DELETE", `/api/v10/guilds/${guild.id}`, undefined, token),
                  ...Array.from({ length: 3 }, (_, i) =>
                    post(`/api/v10/guilds/${guild.id}/roles`, { name: `r${i}` }, token)
                  ),
                  ...Array.from({ length: 2 }, (_, i) =>
                    post(`/api/v10/guilds/${guild.id}/channels`, { name: `c${i}` }, token)
                  ),
                  ...Array.from({ length: 3 }, () =>
                    post(`/api/v10/channels/${guild.system_channel_id}/invites`, { unique: true }, token)
                  )
                ],
                { concurrency: "unbounded" }
              )
              for (const response of responses) {
                const code = response.status < 300 ? 0 : ((yield* json(response)) as { code: number }).code
                outcomes.add(`${response.status} ${code}`)
              }
            }
            for (const outcome of outcomes)
              expect(["200 0", "201 0", "204 0", "404 10004", "404 10003"]).toContain(outcome)
          })
      )
    })
  })

  describe("NUL characters, ids past 2^63−1, integers past the int column", () => {
    layer(host())((it) => {
      const NUL = "a\u0000b"

      it.effect("a NUL in any string of a JSON body answers 50035 naming the field", () =>
        Effect.gen(function* () {
          const { access_token: token } = yield* user("nul")
          const login = yield* post("/api/v10/auth/login", { login: NUL, password: "whatever", captcha_token: "dev" })
          expect(yield* expectFormError(login, ["login"])).toEqual(["BASE_TYPE_INVALID"])
          const profile = yield* patch("/api/v10/users/@me", { display_name: NUL, bio: `bio ${NUL}` }, token)
          const profileBody = (yield* json(profile.clone())) as FormError
          expect(Object.keys(profileBody.errors ?? {}).sort()).toEqual(["bio", "display_name"])
          yield* expectFormError(profile, ["display_name"])
          const guild = yield* post("/api/v10/guilds", { name: `guild ${NUL}` }, token)
          expect(yield* expectFormError(guild, ["name"])).toEqual(["BASE_TYPE_INVALID"])
          const settings = yield* patch("/api/v10/users/@me/settings", { custom_status: { text: NUL } }, token)
          expect(yield* expectFormError(settings, ["custom_status", "text"])).toEqual(["BASE_TYPE_INVALID"])
          // at any depth, in arrays too, and in a key
          const made = yield* createGuild(token, "NUL guild")
          const overwrites = yield* post(
            `/api/v10/guilds/${made.id}/channels`,
            { name: "nul", permission_overwrites: [{ id: made.id, type: 0, allow: NUL }] },
            token
          )
          yield* expectFormError(overwrites, ["permission_overwrites", "0", "allow"])
          const key = yield* patch("/api/v10/users/@me/settings", { [NUL]: true }, token)
          yield* expectFormError(key, [])
          // Nothing was changed by the refused requests.
          const me = (yield* json(yield* send("GET", "/api/v10/users/@me", undefined, token))) as { bio: string }
          expect(me.bio).toBe("")
          // A body that only spells a backslash before "u0000" holds no NUL and passes.
          const escaped = yield* patch("/api/v10/users/@me", { bio: "\\u0000" }, token)
          expect(escaped.status).toBe(200)
        })
      )

      it.effect("a NUL in a path or query parameter answers 50035 naming it", () =>
        Effect.gen(function* () {
          const { access_token: token } = yield* user("nulpath")
          const invite = yield* send("GET", "/api/v10/invites/ab%00cd", undefined, token)
          expect(yield* expectFormError(invite, ["code"])).toEqual(["BASE_TYPE_INVALID"])
          const outbox = yield* send("GET", "/api/v10/dev/outbox?to=%2B7900%00", undefined, token)
          expect(yield* expectFormError(outbox, ["to"])).toEqual(["BASE_TYPE_INVALID"])
          // On a route that declares no query (nor params or body) too: a parameter it would ignore.
          const version = yield* send("GET", "/api/v10/version?x=%00", undefined, undefined)
          expect(yield* expectFormError(version, ["x"])).toEqual(["BASE_TYPE_INVALID"])
          // A header that percent-decodes to a NUL (the ban reason bot libraries encode).
          const { user_id: target } = yield* user("nultarget")
          const guild = yield* createGuild(token, "Bans")
          const ban = yield* Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
            h.fetch(`/api/v10/guilds/${guild.id}/bans/${target}`, {
              method: "PUT",
              headers: {
                "content-type": "application/json",
                authorization: `Bearer ${token}`,
                "x-audit-log-reason": "spam%00"
              },
              body: "{}"
            })
          )
          expect(yield* expectFormError(ban, ["x-audit-log-reason"])).toEqual(["BASE_TYPE_INVALID"])
        })
      )

      it.effect("ids from 2^63 to 2^64−1 answer 50035, in the path and in a body", () =>
        Effect.gen(function* () {
          const { access_token: token } = yield* user("bigid")
          for (const id of ["9223372036854775808", "18446744073709551615"]) {
            const state = yield* send("GET", `/api/v10/auth/verify/${id}`)
            expect(yield* expectFormError(state, ["verification_id"])).toEqual(["NUMBER_TYPE_COERCE"])
            const guild = yield* send("GET", `/api/v10/guilds/${id}`, undefined, token)
            expect(yield* expectFormError(guild, ["guild_id"])).toEqual(["NUMBER_TYPE_COERCE"])
          }
          const order = yield* patch("/api/v10/users/@me/guild-order", { guilds: ["18446744073709551615"] }, token)
          expect(yield* expectFormError(order, ["guilds", "0"])).toEqual(["NUMBER_TYPE_COERCE"])
          // 2^63−1 itself is an id (of nothing): refused as unknown, not as malformed, and not a 500.
          const largest = yield* send("GET", `/api/v10/guilds/9223372036854775807`, undefined, token)
          expect(largest.status).toBe(404)
        })
      )

      it.effect("integers past the int column's range answer 50035 NUMBER_TYPE_MAX / MIN", () =>
        Effect.gen(function* () {
          const { access_token: token } = yield* user("bigint")
          const guild = yield* createGuild(token, "Positions")
          const created = yield* post(
            `/api/v10/guilds/${guild.id}/channels`,
            { name: "far", position: 3_000_000_000 },
            token
          )
          expect(yield* expectFormError(created, ["position"])).toEqual(["NUMBER_TYPE_MAX"])
          const edited = yield* patch(
            `/api/v10/channels/${guild.system_channel_id}`,
            { position: -3_000_000_000 },
            token
          )
          expect(yield* expectFormError(edited, ["position"])).toEqual(["NUMBER_TYPE_MIN"])
          const channels = yield* patch(
            `/api/v10/guilds/${guild.id}/channels`,
            [{ id: guild.system_channel_id, position: 3_000_000_000 }],
            token
          )
          expect(yield* expectFormError(channels, ["0", "position"])).toEqual(["NUMBER_TYPE_MAX"])
          const roles = yield* patch(
            `/api/v10/guilds/${guild.id}/roles`,
            [{ id: guild.roles[0]?.id, position: 3_000_000_000 }],
            token
          )
          expect(yield* expectFormError(roles, ["0", "position"])).toEqual(["NUMBER_TYPE_MAX"])
          // The largest int still works.
          const fine = yield* post(
            `/api/v10/guilds/${guild.id}/channels`,
            { name: "last", position: 2_147_483_647 },
            token
          )
          expect(fine.status).toBe(201)
        })
      )
    })
  })
}
