/**
 * Session scenarios through HTTP that depend on the store's behaviour under races, as one set any
 * test host can run: strict refresh-token reuse (the thief-first order, concurrent refreshes),
 * sessions started under a password that a recovery has since changed, and the sweep of dead ones;
 * and that every answer handing out a token pair or backup codes forbids caches to keep it.
 * test/sessions.test.ts runs them on memory; adapters/postgres/test/SessionRoutes.test.ts on
 * PostgreSQL, where the races are real.
 */
import { describe, expect, layer } from "@effect/vitest"
import { AccountsRepo, SessionSweep, Sessions } from "@veche/auth"
import { OtplibTotpCodes } from "@veche/otplib"
import { Snowflake } from "@veche/platform"
import { AccountDeletion, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { Clock, DateTime, Effect, type Layer, Option, Redacted } from "effect"
import {
  awaitMessage,
  expectNotKept,
  freshAddress,
  json,
  login,
  PASSWORD,
  post,
  type Registered,
  register,
  send
} from "./Accounts.ts"

const NEW_PASSWORD = "a brand new password"
const TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
const client = { userAgent: "scenario", address: "203.0.113.20", country: null }

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

  /** The account's passwordChangedAt as a login reads it with the hash it checks. */
  const passwordSeen = (userId: string) =>
    Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
      host.run(
        Effect.flatMap(Effect.service(AccountsRepo.AccountsRepo), (accounts) =>
          Effect.map(accounts.findByUserId(Snowflake.Snowflake.make(userId)), (account) =>
            Option.getOrNull(Option.flatMapNullishOr(account, (a) => a.credentials.passwordChangedAt))
          )
        )
      )
    )

  /** What a login does once the password checked out: a session under the password it saw. */
  const startSession = (userId: string, seen: Parameters<Sessions.Sessions["Service"]["start"]>[2]) =>
    Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
      host.run(
        Effect.flatMap(Effect.service(Sessions.Sessions), (sessions) =>
          Effect.map(
            sessions.start(Snowflake.Snowflake.make(userId), client, seen),
            (pair): Pair => ({
              access_token: Redacted.value(pair.accessToken),
              refresh_token: Redacted.value(pair.refreshToken)
            })
          )
        )
      )
    )

  /** Password recovery by phone through the routes: the code from the outbox, then the new password. */
  const recover = (phoneNumber: string) =>
    Effect.gen(function* () {
      const started = yield* post(
        "/api/v10/auth/recover/phone",
        { phone: phoneNumber, captcha_token: "dev" },
        undefined,
        freshAddress()
      )
      expect(started.status).toBe(200)
      const { verification_id } = (yield* json(started)) as { verification_id: string }
      const code = (yield* awaitMessage(phoneNumber, "recover"))?.code
      return post("/api/v10/auth/recover/verify", { verification_id, code, new_password: NEW_PASSWORD })
    })

  describe("Sessions under a changed password", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("a session started under the old password after a recovery dies on its next request and refresh", () =>
        Effect.gen(function* () {
          const number = `+${++phone}`
          const owner = yield* register(number, `pw_race_${phone % 100000}`)
          // A login checks the old password (and reads the account's password state with it)...
          const seen = yield* passwordSeen(owner.user_id)
          const before = yield* startSession(owner.user_id, seen)
          expect((yield* me(before.access_token)).status).toBe(200)
          // ...a recovery sets a new password and ends every session...
          const recovered = yield* recover(number).pipe(Effect.flatten)
          expect(recovered.status).toBe(200)
          // ...and the login, slower, starts its session only now, under the password it checked.
          const late = yield* startSession(owner.user_id, seen)
          yield* expectDead(late)
          yield* expectDead(before)
          // The recovery's own session, and logins with the new password, work.
          const fresh = (yield* json(recovered)) as Pair
          expect((yield* me(fresh.access_token)).status).toBe(200)
          const again = yield* login({ login: number, password: NEW_PASSWORD })
          expect(again.status).toBe(200)
          const pair = (yield* json(again)) as Pair
          expect((yield* me(pair.access_token)).status).toBe(200)
          expect((yield* refresh(pair.refresh_token)).status).toBe(200)
          // The session list shows none of the dead ones.
          const listed = (yield* json(
            yield* send("GET", "/api/v10/auth/sessions", undefined, fresh.access_token)
          )) as Array<unknown>
          expect(listed).toHaveLength(2)
        })
      )

      it.effect("a login racing the account's erasure: the session it starts after the erasure is dead", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const number = `+${++phone}`
          const owner = yield* register(number, `erase_race_${phone % 100000}`)
          // A login checks the password (and reads the account's password state with it)...
          const seen = yield* passwordSeen(owner.user_id)
          // ...the erasure ends every session and wipes the credentials (due now, not in 14 days)...
          yield* host.run(
            Effect.gen(function* () {
              const now = yield* DateTime.now
              const userId = Snowflake.Snowflake.make(owner.user_id)
              yield* (yield* DeletionsRepo.DeletionsRepo).request({
                userId,
                state: "pending",
                requestedAt: now,
                deleteAt: now
              })
              expect(yield* (yield* AccountDeletion.AccountDeletion).carryOutDue).toBe(1)
            })
          )
          yield* expectDead(owner)
          // ...and the login, slower, starts its session only now: refused like every other
          yield* expectDead(yield* startSession(owner.user_id, seen))
        })
      )

      it.effect("logins racing a recovery: whatever the order, no session of the old password survives", () =>
        Effect.gen(function* () {
          let started = 0
          for (let trial = 0; trial < 6; trial++) {
            const number = `+${++phone}`
            yield* register(number, `pw_trial_${phone % 100000}`)
            const verify = yield* recover(number)
            // The recovery and six logins with the old password, all at once.
            const [recovered, ...logins] = yield* Effect.all(
              [verify, ...Array.from({ length: 6 }, () => login({ login: number, password: PASSWORD }))],
              { concurrency: "unbounded" }
            )
            expect(recovered?.status).toBe(200)
            for (const response of logins) {
              expect([200, 401]).toContain(response.status)
              if (response.status !== 200) continue
              started++
              yield* expectDead((yield* json(response)) as Pair)
            }
          }
          // Some logins won their race against the new password (else the test proves nothing).
          expect(started).toBeGreaterThan(0)
        })
      )
    })
  })

  describe("Answers carrying credentials", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      /** The app's code for TOTP_SECRET at the host's clock. */
      const appCode = Effect.flatMap(Effect.service(TestHost.TestHost), (h) =>
        Effect.map(h.run(Clock.currentTimeMillis), (now) => OtplibTotpCodes.codeAt(TOTP_SECRET, now))
      )

      it.effect("every token pair and backup code set comes with no-store: no cache may keep it", () =>
        Effect.gen(function* () {
          const h = yield* TestHost.TestHost
          const number = `+${++phone}`
          const email = `kept_${phone % 100000}@example.org`
          const started = (yield* json(
            yield* post(
              "/api/v10/auth/register/phone",
              { phone: number, captcha_token: "dev" },
              undefined,
              freshAddress()
            )
          )) as { verification_id: string }
          const registered = yield* post("/api/v10/auth/register/verify", {
            verification_id: started.verification_id,
            code: (yield* awaitMessage(number, "register"))?.code,
            username: `kept_${phone % 100000}`,
            password: PASSWORD,
            date_of_birth: "1995-01-01",
            consent: true,
            email
          })
          expectNotKept(registered, 201)
          const pair = (yield* json(registered)) as Pair
          const letter = yield* awaitMessage(email, "email_verify")
          expect((yield* post("/api/v10/auth/email/verify", { token: letter?.token })).status).toBe(200)
          expectNotKept(yield* login({ login: number, password: PASSWORD }), 200)
          // the route's refusals too: one rule for every answer of it
          expectNotKept(yield* login({ login: number, password: "not the password" }), 401)
          const refreshed = yield* refresh(pair.refresh_token)
          expectNotKept(refreshed, 200)
          const token = ((yield* json(refreshed)) as Pair).access_token

          // two-factor: the backup codes, and the login that completes with an app code
          const enabled = yield* post(
            "/api/v10/auth/mfa/totp",
            { password: PASSWORD, secret: TOTP_SECRET, code: yield* appCode },
            token
          )
          expectNotKept(enabled, 200)
          const renewed = yield* post("/api/v10/auth/mfa/codes", { password: PASSWORD }, token)
          expectNotKept(renewed, 200)
          const [byPhone, byEmail] = ((yield* json(renewed)) as { backup_codes: Array<string> }).backup_codes
          yield* h.adjustClock("30 seconds")
          expectNotKept(yield* login({ login: number, password: PASSWORD, code: yield* appCode }), 200)

          // recovery by phone, then by e-mail, each with a backup code as the second factor
          const recovering = (yield* json(
            yield* post(
              "/api/v10/auth/recover/phone",
              { phone: number, captcha_token: "dev" },
              undefined,
              freshAddress()
            )
          )) as { verification_id: string }
          const recovered = yield* post("/api/v10/auth/recover/verify", {
            verification_id: recovering.verification_id,
            code: (yield* awaitMessage(number, "recover"))?.code,
            new_password: NEW_PASSWORD,
            mfa_code: byPhone
          })
          expectNotKept(recovered, 200)
          const mailed = yield* post(
            "/api/v10/auth/recover/email",
            { email, captcha_token: "dev" },
            undefined,
            freshAddress()
          )
          expect(mailed.status).toBe(200)
          const link = yield* awaitMessage(email, "email_recover")
          expectNotKept(
            yield* post("/api/v10/auth/recover/email/verify", {
              token: link?.token,
              new_password: "yet another password",
              code: byEmail
            }),
            200
          )
        })
      )
    })
  })

  describe("Session sweep", () => {
    layer(host(), { timeout: "60 seconds" })((it) => {
      it.effect("removes logged-out and reuse-revoked sessions with their tokens; a live one keeps working", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const live = yield* user("sweep_live")
          const livePair = (yield* json(yield* refresh(live.refresh_token))) as Pair
          const loggedOut = yield* user("sweep_out")
          expect((yield* send("POST", "/api/v10/auth/logout", undefined, loggedOut.access_token)).status).toBe(204)
          const stolen = yield* user("sweep_stolen")
          yield* refresh(stolen.refresh_token)
          expect((yield* refresh(stolen.refresh_token)).status).toBe(401)
          // dead for longer than the sweep's settling time; the worker's next round is an hour away
          yield* host.adjustClock("2 minutes")
          const swept = yield* host.run(Effect.flatMap(Effect.service(SessionSweep.SessionSweep), (s) => s.sweep))
          // the logged-out session's pair, and the reused one's spent token with the pair it rotated to
          expect(swept).toEqual({ sessions: 2, tokens: 5 })
          expect((yield* me(livePair.access_token)).status).toBe(200)
          expect((yield* refresh(livePair.refresh_token)).status).toBe(200)
          yield* expectDead(loggedOut)
          yield* expectDead(stolen)
        })
      )
    })
  })
}
