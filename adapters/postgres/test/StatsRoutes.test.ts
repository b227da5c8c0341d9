/**
 * The staff statistics scenarios of test/moderation-stats.test.ts on PostgreSQL: the test host over
 * every Pg repository (the rollups included), in a fresh schema dropped afterwards. Then the running
 * totals' recount: totals knocked off behind the host's back are right again within the hour.
 */

import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { TestHost } from "@veche/test-host"
import { Duration, Effect, Layer, Redacted } from "effect"
import { json, login, PASSWORD, register, send } from "~/test/support/Accounts"
import { statsScenarios } from "~/test/support/StatsScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL
const STAFF_PHONE = "+79472000000"

describe.runIf(url !== undefined && url !== "")("Staff statistics (PostgreSQL)", () => {
  statsScenarios(
    () => PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie),
    { weekLater: false }
  )
})

describe.runIf(url !== undefined && url !== "")("Staff statistics: the running totals' recount (PostgreSQL)", () => {
  const schema = PgTestSchema.freshName()
  const host = TestHost.layer({
    rateLimits: { enabled: false },
    staff: { phones: [STAFF_PHONE] },
    repositories: PgRepositories.layer.pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""), schema)),
      Layer.orDie
    )
  })
  /** A second connection to the host's schema: what a crash between a write and its bump leaves. */
  const behindTheHost = (statement: string) =>
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql.unsafe(statement)
    }).pipe(
      Effect.provide(
        PgClient.layer({ url: Redacted.make(url ?? ""), maxConnections: 1, startupParameters: { search_path: schema } })
      ),
      Effect.orDie
    )

  layer(host, { timeout: "120 seconds" })((it) => {
    it.effect("totals knocked off are recounted from the tables within the hour", () =>
      Effect.gen(function* () {
        const testHost = yield* TestHost.TestHost
        const staff = yield* register(STAFF_PHONE, "recount_staff")
        const alice = yield* register("+79472000001", "recount_alice", { email: "recount.alice@example.org" })
        yield* register("+79472000002", "recount_bob")
        expect((yield* send("POST", "/api/v10/guilds", { name: "Recounted" }, alice.access_token)).status).toBe(201)
        let token = staff.access_token
        const totals = Effect.gen(function* () {
          const answer = yield* send("GET", "/api/v10/moderation/stats", undefined, token)
          expect(answer.status).toBe(200)
          const body = (yield* json(answer)) as { users: { total: number; deleted: number }; guilds: { total: number } }
          return { users: body.users.total, deleted: body.users.deleted, guilds: body.guilds.total }
        })
        const counted = { users: 3, deleted: 0, guilds: 1 }
        expect(yield* totals).toEqual(counted)

        yield* behindTheHost(
          "UPDATE stats_gauges SET value = value + CASE gauge WHEN 'users' THEN 100 WHEN 'guilds' THEN -1 ELSE 7 END"
        )
        expect(yield* totals).toEqual({ users: 103, deleted: 7, guilds: 0 })

        // The recount ran at the host's start; the job asks every ten minutes and runs hourly. The
        // clock moves ten minutes at a time (each tick's statements take real time) until it did.
        let seen = yield* totals
        for (let step = 0; step < 12 && seen.users !== counted.users; step++) {
          yield* testHost.adjustClock(Duration.minutes(10))
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 100)))
          const again = yield* login({ login: STAFF_PHONE, password: PASSWORD })
          token = ((yield* json(again)) as { access_token: string }).access_token
          seen = yield* totals
        }
        expect(seen).toEqual(counted)
      })
    )
  })
})
