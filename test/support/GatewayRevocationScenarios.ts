/**
 * Revocation reaching open gateway sessions (CredentialWatch): a logout, sessions ended from
 * another session and a bot's token reset close the sessions resting on them with 4004, which ends
 * them (no resume); a refreshed token and an hour passing do not. On PostgreSQL word comes from the
 * database's notifications, so the close comes at once with no clock moved; on memory the periodic
 * check (once a heartbeat interval) finds it. Run on memory (test/gateway-revocation.test.ts) and
 * on PostgreSQL (adapters/postgres/test/GatewayRevocation.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { json, login, PASSWORD, post, register, send } from "./Accounts.ts"
import { resetBotToken } from "./ApplicationScenarios.ts"
import { botInGuild } from "./Bots.ts"
import * as GatewayServer from "./GatewayServer.ts"
import { createGuild } from "./Guilds.ts"

const GUILDS = 1 << 0

const connect = () =>
  Effect.flatMap(Effect.service(GatewayServer.Listening), (listening) =>
    Effect.promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`))
  )
const promise = <A>(f: () => Promise<A>) => Effect.promise(f)
const identify = (token: string, extra: Record<string, unknown> = {}) => ({
  op: 2,
  d: { token, properties: { os: "linux", browser: "test", device: "test" }, ...extra }
})
/** A session identified with `token`: its client and READY's session id. */
const identified = (token: string, extra: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const client = yield* connect()
    client.send(identify(token, extra))
    const ready = yield* promise(() => client.nextDispatch("READY"))
    return { client, sessionId: (ready.d as { session_id: string }).session_id }
  })
/** A heartbeat sent and acknowledged (op 11): the connection is open and served. */
const heartbeat = (client: GatewayServer.RawClient) =>
  promise(async () => {
    client.send({ op: 1, d: null })
    for (;;) if ((await client.next()).op === 11) return true
  })
const refresh = (refreshToken: string) =>
  Effect.flatMap(post("/api/v10/auth/refresh", { refresh_token: refreshToken }), (response) => {
    expect(response.status).toBe(200)
    return json(response) as Effect.Effect<{ access_token: string; refresh_token: string }>
  })

export const gatewayRevocationScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) =>
  describe("revocation reaching open gateway sessions", () => {
    const onPostgres = repositories !== undefined
    /**
     * The client is closed with `code`: on PostgreSQL at once (word from the database, no clock
     * moved); on memory once the periodic check runs (the clock moved past an interval).
     */
    const closedWith = (client: GatewayServer.RawClient, code: number) =>
      Effect.gen(function* () {
        if (!onPostgres) yield* (yield* TestHost.TestHost).adjustClock("42 seconds")
        const closed = yield* promise(() =>
          Promise.race([client.closed, new Promise<"open">((resolve) => setTimeout(() => resolve("open"), 5000))])
        )
        expect(closed).toMatchObject({ code })
      })
    /**
     * Long enough for a check to have asked about every session (the one as it is watched too): the
     * interval on the test clock (memory), then real time for word to be gathered and answered.
     */
    const pastACheck = Effect.gen(function* () {
      if (!onPostgres) yield* (yield* TestHost.TestHost).adjustClock("42 seconds")
      yield* promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
    })
    /** What a RESUME of `sessionId` with `token` is answered: RESUMED, op 9, or the close code. */
    const resumeAnswer = (token: string, sessionId: string) =>
      Effect.gen(function* () {
        const client = yield* connect()
        client.send({ op: 6, d: { token, session_id: sessionId, seq: 1 } })
        return yield* promise(async () => {
          try {
            for (;;) {
              const frame = await client.next()
              if (frame.op === 9) return "op 9"
              if (frame.t === "RESUMED") return "RESUMED"
            }
          } catch {
            return `closed ${(await client.closed).code}`
          }
        })
      })

    layer(GatewayServer.layer({ repositories: repositories?.() }), { timeout: "120 seconds" })((it) => {
      it.effect("a logout closes the user's open session with 4004, which cannot be resumed; others stay", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050019001", "gw_revoked")
          const other = yield* register("+79050019002", "gw_stays")
          const revoked = yield* identified(user.access_token)
          const stays = yield* identified(other.access_token)

          expect((yield* send("POST", "/api/v10/auth/logout", undefined, user.access_token)).status).toBe(204)
          yield* closedWith(revoked.client, 4004)
          // the session ended with it: no resume, even with another login of the same user
          const again = yield* login({ login: "+79050019001", password: PASSWORD })
          const fresh = ((yield* json(again)) as { access_token: string }).access_token
          const resume = yield* connect()
          resume.send({ op: 6, d: { token: fresh, session_id: revoked.sessionId, seq: 1 } })
          const answer = yield* promise(async () => {
            for (;;) {
              const frame = await resume.next()
              if (frame.op === 9 || frame.t === "RESUMED") return frame
            }
          })
          expect(answer).toMatchObject({ op: 9, d: false })
          // another user's session, checked too, holds
          expect(yield* heartbeat(stays.client)).toBe(true)
          yield* promise(() => stays.client.close())
        })
      )

      it.effect("ending a user's other sessions closes their gateway sessions, not the caller's own", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050019003", "gw_ends_others")
          const second = (yield* json(yield* login({ login: "+79050019003", password: PASSWORD }))) as {
            access_token: string
          }
          const elsewhere = yield* identified(user.access_token)
          const here = yield* identified(second.access_token)
          expect((yield* send("DELETE", "/api/v10/auth/sessions", undefined, second.access_token)).status).toBe(204)
          yield* closedWith(elsewhere.client, 4004)
          expect(yield* heartbeat(here.client)).toBe(true)
          yield* promise(() => here.client.close())
        })
      )

      it.effect("a refreshed token and an hour passing keep the session open: it rests on the login session", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const user = yield* register("+79050019004", "gw_refreshes")
          const guild = yield* createGuild(user.access_token, "Refreshing Guild")
          const { client } = yield* identified(user.access_token)
          yield* promise(() => client.nextDispatch("GUILD_CREATE"))
          // the access token the session identified with is deleted by the refresh
          let pair = yield* refresh(user.refresh_token)
          expect((yield* send("GET", "/api/v10/users/@me", undefined, user.access_token)).status).toBe(401)
          // past the hour the access tokens last, heartbeating, the periodic check running all along
          for (let step = 0; step < 95; step++) {
            yield* host.adjustClock("40 seconds")
            expect(yield* heartbeat(client)).toBe(true)
          }
          // the last check answered (real time for its gathering and its question), and held
          yield* promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
          expect(yield* heartbeat(client)).toBe(true)
          pair = yield* refresh(pair.refresh_token)
          const made = yield* post(`/api/v10/guilds/${guild.id}/channels`, { name: "still-here" }, pair.access_token)
          expect(made.status).toBe(201)
          const created = yield* promise(() => client.nextDispatch("CHANNEL_CREATE"))
          expect(created.d).toMatchObject({ name: "still-here" })
          yield* promise(() => client.close())
        })
      )

      it.effect("a bot's token reset closes its open sessions with 4004; the new token identifies", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          const { owner, app, token } = yield* botInGuild("+79050019005", "gwreset")
          const { client } = yield* identified(token, { intents: GUILDS })
          const renewed = yield* resetBotToken(owner.access_token, app.id)
          yield* closedWith(client, 4004)
          // a bot identifies once in 5 s
          yield* host.adjustClock("6 seconds")
          const next = yield* identified(renewed, { intents: GUILDS })
          // asked about, and holding
          yield* pastACheck
          expect(yield* heartbeat(next.client)).toBe(true)
          yield* promise(() => next.client.close())
        })
      )

      it.effect("deleting a bot's application closes its open sessions with 4004", () =>
        Effect.gen(function* () {
          const { owner, app, token } = yield* botInGuild("+79050019006", "gwgone")
          const { client } = yield* identified(token, { intents: GUILDS })
          yield* pastACheck
          expect(yield* heartbeat(client)).toBe(true)
          expect((yield* send("DELETE", `/api/v10/applications/${app.id}`, undefined, owner.access_token)).status).toBe(
            204
          )
          yield* closedWith(client, 4004)
        })
      )

      it.effect("a session dropped before its credential was revoked cannot be resumed with another one", () =>
        Effect.gen(function* () {
          const host = yield* TestHost.TestHost
          // a user: dropped (resumable), then logged out; a new login may not take the session up
          const user = yield* register("+79050019007", "gw_dropped")
          const dropped = yield* identified(user.access_token)
          yield* promise(() => dropped.client.close(4000))
          expect((yield* send("POST", "/api/v10/auth/logout", undefined, user.access_token)).status).toBe(204)
          const again = (yield* json(yield* login({ login: "+79050019007", password: PASSWORD }))) as {
            access_token: string
          }
          expect(yield* resumeAnswer(again.access_token, dropped.sessionId)).toBe("op 9")
          expect(yield* resumeAnswer(user.access_token, dropped.sessionId)).toBe("closed 4004")
          // a bot: dropped, then its token reset; the new token may not resume the old session
          const { owner, app, token } = yield* botInGuild("+79050019008", "gwdrop")
          const bot = yield* identified(token, { intents: GUILDS })
          yield* promise(() => bot.client.close(4000))
          const renewed = yield* resetBotToken(owner.access_token, app.id)
          yield* host.adjustClock("1 second")
          expect(yield* resumeAnswer(renewed, bot.sessionId)).toBe("op 9")
          // the same login session, with a refreshed token, resumes as before
          const kept = yield* register("+79050019009", "gw_kept")
          const held = yield* identified(kept.access_token)
          yield* promise(() => held.client.close(4000))
          const pair = yield* refresh(kept.refresh_token)
          expect(yield* resumeAnswer(pair.access_token, held.sessionId)).toBe("RESUMED")
        })
      )
    })
  })
