/**
 * The principal cache on PostgreSQL (issue 22), through the public HTTP API on two nodes that share
 * one database: node A (the suite's host) and node B (built here on its own pool). On the node that
 * writes, a revocation or a change to what `GET /users/@me` shows holds for the very next request;
 * on the other node as soon as its connections read the notification published at the commit. A
 * write by a client that is neither node (a script, psql) counts the same; a lost listening
 * connection empties the cache; and the lookup reads no table the triggers do not watch.
 */

import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { SessionsRepo } from "@veche/auth"
import { TestHost } from "@veche/test-host"
import { Context, DateTime, Effect, Layer, Queue, Redacted, Tracer } from "effect"
import { SqlClient } from "effect/sql"
import { json, PASSWORD, register, send } from "~/test/support/Accounts"
import { firstNode, secondNode } from "~/test/support/PgNodes"
import { WATCHED } from "../src/migrations/0030_principal_notify.ts"
import * as PgDatabase from "../src/PgDatabase.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PrincipalCache from "../src/PrincipalCache.ts"
import * as PrincipalHeartbeat from "../src/PrincipalHeartbeat.ts"

const url = process.env.DATABASE_URL
const schema = PgTestSchema.freshName()
const NODE_B = `veche_b_${process.pid}`
let counter = 0
const phone = () => `+7946555${String((process.pid * 10 + ++counter) % 10_000).padStart(4, "0")}`

/** Node B: a pool of its own over the suite's schema. */
const nodeB = secondNode({ url: Redacted.make(url ?? ""), schema, maxConnections: 2, applicationName: NODE_B })

/**
 * Neither node's pool: a client of its own on the suite's schema, as a script or psql would be (it
 * keeps no cache, so it listens to nothing unless asked).
 */
const outsider = (maxConnections: number) =>
  Layer.build(PgDatabase.layer({ url: Redacted.make(url ?? ""), schema, maxConnections, principalCacheEntries: 0 }))

const meOn = (host: TestHost.TestHost["Service"], token: string) =>
  host.fetch("/api/v10/users/@me", { headers: { authorization: `Bearer ${token}` } })

/** Waits on a real timer (the heartbeat runs on them, whatever the test clock says). */
const realWait = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

/** Polls until `check` holds (at most two seconds); the time it took, in milliseconds. */
const until = (check: Effect.Effect<boolean>) =>
  Effect.gen(function* () {
    const started = Date.now()
    while (!(yield* check)) {
      if (Date.now() - started > 2000) return yield* Effect.die(new Error("node B never saw the change"))
      yield* realWait(2)
    }
    return Date.now() - started
  })

describe.runIf(url !== undefined && url !== "")("PrincipalCache (PostgreSQL, two nodes)", () => {
  layer(firstNode(Redacted.make(url ?? ""), schema), { timeout: "60 seconds" })((it) => {
    it.effect("revocations and profile changes: at once on the writing node, on the other as the notice arrives", () =>
      Effect.gen(function* () {
        const a = yield* TestHost.TestHost
        const cacheA = yield* PrincipalCache.PrincipalCache
        const b = yield* nodeB
        const login = phone()
        const me = yield* register(login, `cache_${process.pid % 100_000}`)
        const token = me.access_token

        // both nodes answer from their cache once warm: a second @me reads nothing
        for (const host of [a, b.host]) {
          expect((yield* meOn(host, token)).status).toBe(200)
          expect((yield* meOn(host, token)).status).toBe(200)
        }
        expect(cacheA.size).toBeGreaterThan(0)
        expect(b.cache.size).toBeGreaterThan(0)

        // a profile change on A: A's next answer shows it, B's as soon as the notice arrives
        expect((yield* send("PATCH", "/api/v10/users/@me", { bio: "changed on A" }, token)).status).toBe(200)
        const bioOf = (host: TestHost.TestHost["Service"]) =>
          Effect.map(Effect.flatMap(meOn(host, token), json), (body) => (body as { bio?: unknown }).bio)
        expect(yield* bioOf(a)).toBe("changed on A")
        const bioLag = yield* until(Effect.map(bioOf(b.host), (bio) => bio === "changed on A"))

        // a second session ended from the first on A (DELETE /auth/sessions): refused on A at once
        const other = (yield* json(
          yield* send("POST", "/api/v10/auth/login", { phone: login, password: PASSWORD, captcha_token: "dev" })
        )) as { access_token: string }
        expect((yield* meOn(a, other.access_token)).status).toBe(200)
        expect((yield* meOn(b.host, other.access_token)).status).toBe(200)
        expect((yield* send("DELETE", "/api/v10/auth/sessions", undefined, token)).status).toBe(204)
        expect((yield* meOn(a, other.access_token)).status).toBe(401)
        const endLag = yield* until(Effect.map(meOn(b.host, other.access_token), (r) => r.status === 401))

        // logout on B: B refuses at once, A as the notice arrives
        const logout = yield* b.host.fetch("/api/v10/auth/logout", {
          method: "POST",
          headers: { authorization: `Bearer ${token}` }
        })
        expect(logout.status).toBe(204)
        expect((yield* meOn(b.host, token)).status).toBe(401)
        const logoutLag = yield* until(Effect.map(meOn(a, token), (r) => r.status === 401))
        yield* Effect.logInfo("principal cache: the other node saw the change after", { bioLag, endLag, logoutLag })
      })
    )

    it.effect("a write by any client counts (a block set by hand); a lost listening connection empties the cache", () =>
      Effect.gen(function* () {
        const a = yield* TestHost.TestHost
        const cacheA = yield* PrincipalCache.PrincipalCache
        const b = yield* nodeB
        const me = yield* register(phone(), `cache_sql_${process.pid % 100_000}`)
        expect((yield* meOn(a, me.access_token)).status).toBe(200)
        expect((yield* meOn(b.host, me.access_token)).status).toBe(200)

        const sql = Context.get(yield* outsider(1), SqlClient.SqlClient)
        yield* sql`INSERT INTO account_blocks (user_id, reason, until, blocked_by, created_at)
                   VALUES (${me.user_id}, 'by hand', NULL, NULL, now())`.pipe(Effect.orDie)
        yield* until(Effect.map(meOn(a, me.access_token), (r) => r.status === 403))
        yield* until(Effect.map(meOn(b.host, me.access_token), (r) => r.status === 403))
        yield* sql`DELETE FROM account_blocks WHERE user_id = ${me.user_id}`.pipe(Effect.orDie)
        for (const host of [a, b.host]) {
          yield* until(Effect.map(meOn(host, me.access_token), (r) => r.status === 200))
          expect((yield* meOn(host, me.access_token)).status).toBe(200)
        }
        // Each node keeps the principal again. Not at once: the DELETE's notice can arrive after a
        // lookup that already read past it, and rightly empties what that lookup kept (CI saw 0 here).
        yield* until(Effect.map(meOn(a, me.access_token), (r) => r.status === 200 && cacheA.size > 0))
        yield* until(Effect.map(meOn(b.host, me.access_token), (r) => r.status === 200 && b.cache.size > 0))

        // B's connections ended by the server: B keeps nothing it might have missed
        yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ${NODE_B}`.pipe(
          Effect.orDie
        )
        yield* until(Effect.sync(() => b.cache.size === 0))
        // the pool may hand out a connection it has not yet seen die (a 500, as without the cache)
        yield* until(Effect.map(meOn(b.host, me.access_token), (r) => r.status === 200))
        expect(cacheA.size).toBeGreaterThan(0)
      })
    )

    it.effect(
      "heartbeats go to the node's own channel; an idle node sends none, its next lookup starts them at once",
      () =>
        Effect.gen(function* () {
          const a = yield* TestHost.TestHost
          const cacheA = yield* PrincipalCache.PrincipalCache
          const me = yield* register(phone(), `cache_idle_${process.pid % 100_000}`)
          // A's heartbeats as a listener of its beat channel hears them; none go to the shared channel,
          // whose every listener (each connection of each node) they would wake
          const listen = Context.get(yield* outsider(2), PgClient.PgClient).listen
          const beatNotices = yield* listen(cacheA.beatChannel)
          const sharedNotices = yield* listen(PrincipalCache.CHANNEL)
          let beats = 0
          let beatsShared = 0
          const count = (queue: typeof beatNotices, onBeat: () => void) =>
            Effect.forkScoped(
              Effect.forever(
                Effect.map(Queue.take(queue), (notification) => {
                  if (notification.payload.startsWith(`~${cacheA.node} `)) onBeat()
                })
              )
            )
          yield* count(beatNotices, () => beats++)
          yield* count(sharedNotices, () => beatsShared++)

          expect((yield* meOn(a, me.access_token)).status).toBe(200)
          yield* until(Effect.sync(() => beats > 0))
          // no lookup for longer than the quiet time: the beats stop
          yield* realWait(PrincipalHeartbeat.QUIET_AFTER_MS + 3 * PrincipalHeartbeat.BEAT_EVERY_MS)
          const idle = beats
          yield* realWait(6 * PrincipalHeartbeat.BEAT_EVERY_MS)
          expect(beats).toBe(idle)
          // the next lookup (answered by PostgreSQL: nothing heard lately) starts them without a timer's wait
          expect((yield* meOn(a, me.access_token)).status).toBe(200)
          const restartedAfterMs = yield* until(Effect.sync(() => beats > idle))
          expect(restartedAfterMs).toBeLessThan(PrincipalHeartbeat.BEAT_EVERY_MS)
          expect((yield* meOn(a, me.access_token)).status).toBe(200)
          expect(beatsShared).toBe(0)
        })
    )

    it.effect("a new session or token notifies nobody; ending or rotating one does", () =>
      Effect.gen(function* () {
        const login = phone()
        const me = yield* register(login, `cache_quiet_${process.pid % 100_000}`)
        const client = yield* outsider(2)
        const sql = Context.get(client, SqlClient.SqlClient)
        const notices = yield* Context.get(client, PgClient.PgClient).listen(PrincipalCache.CHANNEL)
        // A marker notified after a step's commit arrives after every notification that step made
        // (one listener hears in commit order). Heartbeat-shaped: every node ignores another's beats.
        let markers = 0
        const noticesOf = Effect.fnUntraced(function* <R>(step: Effect.Effect<unknown, never, R>) {
          yield* step
          const marker = `~quiet_${process.pid}_${++markers} 1`
          yield* sql`SELECT pg_notify(${PrincipalCache.CHANNEL}, ${marker})`.pipe(Effect.orDie)
          let ofUser = 0
          for (;;) {
            const { payload } = yield* Queue.take(notices).pipe(
              Effect.timeoutOrElse({
                duration: "5 seconds",
                orElse: () => Effect.die(new Error(`the marker ${marker} never arrived`))
              })
            )
            if (payload === marker) return ofUser
            if (payload === me.user_id) ofUser++
          }
        })
        // the listener hears the channel before the first step
        expect(yield* noticesOf(Effect.void)).toBe(0)

        const loggedIn = yield* send("POST", "/api/v10/auth/login", {
          phone: login,
          password: PASSWORD,
          captcha_token: "dev"
        })
        expect(loggedIn.status).toBe(200)
        const session = (yield* json(loggedIn)) as { access_token: string; refresh_token: string }
        expect(yield* noticesOf(Effect.void)).toBe(0)
        // a rotation spends the old pair: its one transaction notifies once
        let rotatedTo: { refresh_token?: unknown } = {}
        const rotated = yield* noticesOf(
          Effect.flatMap(send("POST", "/api/v10/auth/refresh", { refresh_token: session.refresh_token }), (answer) => {
            expect(answer.status).toBe(200)
            return Effect.map(json(answer), (body) => {
              rotatedTo = body as { refresh_token?: unknown }
            })
          })
        )
        expect(rotatedTo.refresh_token).toEqual(expect.any(String))
        expect(rotatedTo.refresh_token).not.toBe(session.refresh_token)
        expect(rotated).toBe(1)
        const ended = yield* noticesOf(
          Effect.map(send("DELETE", "/api/v10/auth/sessions", undefined, me.access_token), (answer) =>
            expect(answer.status).toBe(204)
          )
        )
        expect(ended).toBe(1)
      })
    )

    it.effect("the lookups read only tables whose changes notify", () =>
      Effect.gen(function* () {
        const sessions = yield* SessionsRepo.SessionsRepo
        const texts: Array<string> = []
        const native = yield* Effect.service(Tracer.Tracer)
        const recording = Tracer.make({
          span: (options) => {
            const span = native.span(options)
            const attribute = span.attribute.bind(span)
            span.attribute = (key, value) => {
              if (key === "db.query.text" && typeof value === "string") texts.push(value)
              attribute(key, value)
            }
            return span
          }
        })
        const now = yield* DateTime.now
        yield* Effect.all([
          sessions.findAccess(`unknown-${process.pid}-1`, now, false),
          sessions.findAccess(`unknown-${process.pid}-2`, now, true)
        ]).pipe(Effect.withTracer(recording), Effect.withTracerEnabled(true))
        expect(texts).toHaveLength(2)
        const read = new Set(
          // a name followed by a dot is a column (`IS NOT DISTINCT FROM c.password_changed_at`)
          texts.flatMap((text) =>
            [...text.matchAll(/\b(?:FROM|JOIN)\s+([a-z_]+)(\.?)/gi)].flatMap((m) => (m[2] === "" ? [m[1]] : []))
          )
        )
        const watched = new Set(WATCHED.map(([table]) => table))
        expect([...read].filter((table) => table !== undefined && !watched.has(table))).toEqual([])
        expect(read.size).toBeGreaterThanOrEqual(9)
        // Migration 0031 lets a new session or token notify nobody. That is sound only while each
        // lookup reads the one token its digest names and that token's session, never a list or a
        // count of either.
        for (const text of texts) {
          // a table name is followed by neither a dot (a column) nor more of a name
          const named = [...text.matchAll(/\b(?:FROM|JOIN)\s+(sessions|session_tokens)([.\w]?)/gi)].flatMap((m) =>
            m[2] === "" ? [m[1]] : []
          )
          expect(named.sort()).toEqual(["session_tokens", "sessions"])
          expect(text).toMatch(/session_tokens t JOIN sessions s ON s\.id = t\.session_id/)
          expect(text).toMatch(/\bt\.digest = \$\d+/)
        }
      })
    )
  })
})
