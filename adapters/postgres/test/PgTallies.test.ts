import { describe, expect, layer } from "@effect/vitest"
import { Snowflake, Tallies } from "@veche/platform"
import { activityRace, talliesContract } from "@veche/platform/test/contracts/TalliesContract"
import { Context, DateTime, Duration, Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as PgTallies from "../src/PgTallies.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("Tallies (PostgreSQL)", () => {
  layer(PgTallies.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => talliesContract(it))
})

/** Another node's store on the same schema: its own memory of the users it counted today. */
const node = Effect.map(Layer.build(Layer.fresh(PgTallies.layer)), (context) => Context.get(context, Tallies.Tallies))

const id = (n: number) => Snowflake.Snowflake.make(String(1_400_000_000_000_000_000n + BigInt(n)))

describe.runIf(url !== undefined && url !== "")("Tallies on PostgreSQL, several nodes", () => {
  layer(PgTallies.layer.pipe(Layer.provideMerge(PgTestSchema.layer(Redacted.make(url ?? "")))), {
    timeout: "60 seconds"
  })((it) => {
    it.effect("active users per day stay exact when three nodes count one user's requests at once", () =>
      Effect.gen(function* () {
        const nodes = [yield* Tallies.Tallies, yield* node, yield* node] as const
        yield* activityRace(nodes, 5000)
      })
    )

    it.effect("the recount sets drifted running totals from the tables, once per period and on one node", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const tallies = yield* Tallies.Tallies
        const other = yield* node
        // Three accounts (one erased, one with an address) and two guilds, written straight into
        // the tables; the totals say otherwise, as after bumps lost to a crash.
        yield* sql`
          INSERT INTO users (id, username, display_name, created_at)
          SELECT ${id(0)}::bigint + n, 'recount_' || n, NULL, now() FROM generate_series(1, 3) AS n`
        yield* sql`
          INSERT INTO credentials (user_id, phone, email, email_verified, password_hash, date_of_birth, created_at)
          VALUES (${id(1)}, '+79470000001', 'a@example.org', true, 'hash', '2000-01-01', now()),
                 (${id(2)}, '+79470000002', NULL, false, 'hash', '2000-01-01', now()),
                 (${id(3)}, NULL, NULL, false, '!erased', '2000-01-01', now())`
        yield* sql`
          INSERT INTO guilds (id, name, owner_id, verification_level, created_at)
          SELECT ${id(100)}::bigint + n, 'g' || n, ${id(1)}, 0, now() FROM generate_series(1, 2) AS n`
        yield* tallies.gauge("users", 40)
        yield* tallies.gauge("guilds", -7)
        yield* tallies.gauge("with_email", 1)
        expect(yield* tallies.gauges).toEqual({ users: 40, users_deleted: 0, with_email: 1, guilds: -7 })

        const at = DateTime.makeUnsafe("2026-10-01T12:00:00Z")
        // Two nodes at once: one recounts, the other finds the job taken (or already done).
        const [first, second] = yield* Effect.all(
          [tallies.recount(at, Duration.hours(1)), other.recount(at, Duration.hours(1))],
          { concurrency: "unbounded" }
        )
        const ran = [first, second].filter((result) => result !== null)
        expect(ran).toHaveLength(1)
        expect([...(ran[0] ?? [])].sort((a, b) => (a.gauge < b.gauge ? -1 : 1))).toEqual([
          { gauge: "guilds", was: -7, now: 2 },
          { gauge: "users", was: 40, now: 2 },
          { gauge: "users_deleted", was: 0, now: 1 }
        ])
        expect(yield* tallies.gauges).toEqual({ users: 2, users_deleted: 1, with_email: 1, guilds: 2 })

        // Within the period nothing runs; after it, a fresh drift is repaired again.
        yield* tallies.gauge("users", 5)
        expect(yield* other.recount(DateTime.add(at, { minutes: 59 }), Duration.hours(1))).toBeNull()
        expect(yield* other.recount(DateTime.add(at, { minutes: 61 }), Duration.hours(1))).toEqual([
          { gauge: "users", was: 7, now: 2 }
        ])
        expect(yield* tallies.gauges).toEqual({ users: 2, users_deleted: 1, with_email: 1, guilds: 2 })
      })
    )
  })
})
