/**
 * Session scenarios through HTTP that depend on the store's behaviour under races, as one set any
 * test host can run: strict refresh-token reuse (the thief-first order, concurrent refreshes).
 * test/sessions.test.ts runs them on memory; adapters/postgres/test/SessionRoutes.test.ts on
 * PostgreSQL, where the races are real.
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, post, type Registered, register, send } from "./Accounts.ts"

interface Pair {
  readonly access_token: string
  readonly refresh_token: string
}

const refresh = (token: string) => post("/api/v10/auth/refresh", { refresh_token: token })
const me = (token: string) => send("GET", "/api/v10/users/@me", undefined, token)

/** Status and body of an answer, for comparing whole answers. */
const answer = (response: Response) => Effect.map(json(response), (body) => ({ status: response.status, body }))

const INVALID = { status: 401, body: { code: 50014, message: "Invalid authentication token" } }

/** A pair's access and refresh token both answer 401 50014. */
const expectDead = (pair: Pair) =>
  Effect.gen(function* () {
    expect(yield* answer(yield* me(pair.access_token))).toEqual(INVALID)
    expect(yield* answer(yield* refresh(pair.refresh_token))).toEqual(INVALID)
  })

/**
 * Registers every scenario. `repositories` is called once per describe block, so each block gets
 * its own store; default memory.
 */
export const sessionScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () => TestHost.layer({ rateLimits: { enabled: false }, repositories: repositories?.() })

  let phone = 79671000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)

  describe("Strict refresh reuse", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("a thief who refreshes first loses the session when the owner retries: both pairs die", () =>
        Effect.gen(function* () {
          const owner = yield* user("reuse_owner")
          // the thief copied the owner's refresh token and uses it first
          const stolen = yield* refresh(owner.refresh_token)
          expect(stolen.status).toBe(200)
          const thief = (yield* json(stolen)) as Pair
          expect((yield* me(thief.access_token)).status).toBe(200)
          // the owner's retry with the same token, at once (no time passes): a reuse
          expect(yield* answer(yield* refresh(owner.refresh_token))).toEqual(INVALID)
          // the whole chain is revoked: the thief's new pair is dead, and so is the owner's old one
          yield* expectDead(thief)
          yield* expectDead(owner)
        })
      )

      it.effect("the owner first, the thief after: the same, the owner's new pair dies with the chain", () =>
        Effect.gen(function* () {
          const owner = yield* user("reuse_first")
          const renewed = (yield* json(yield* refresh(owner.refresh_token))) as Pair
          expect(yield* answer(yield* refresh(owner.refresh_token))).toEqual(INVALID)
          yield* expectDead(renewed)
        })
      )

      it.effect(
        "N concurrent refreshes with one token: one rotation, no 500, and the losers' reuse ends the chain",
        () =>
          Effect.gen(function* () {
            // Strict reuse cannot tell a client racing itself from a thief racing the owner (that is the
            // thief-first order above, milliseconds apart), so every loser is a reuse: the one rotation
            // happens, and then the chain, the winner's pair included, is revoked. Never two live children.
            const owner = yield* user("reuse_race")
            const answers = yield* Effect.forEach(
              Array.from({ length: 8 }, () => owner.refresh_token),
              (token) => Effect.flatMap(refresh(token), answer),
              { concurrency: "unbounded" }
            )
            expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
            expect(answers.filter((a) => a.status !== 200)).toEqual(Array.from({ length: 7 }, () => INVALID))
            const winner = answers.find((a) => a.status === 200)?.body as Pair
            yield* expectDead(winner)
            yield* expectDead(owner)
          })
      )

      it.effect("one refresh at a time keeps the chain alive through many rotations", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          let pair: Pair = yield* user("reuse_serial")
          for (let i = 0; i < 5; i++) {
            yield* host.adjustClock("10 minutes")
            const next = yield* refresh(pair.refresh_token)
            expect(next.status).toBe(200)
            pair = (yield* json(next)) as Pair
          }
          expect((yield* me(pair.access_token)).status).toBe(200)
        })
      )
    })
  })
}
