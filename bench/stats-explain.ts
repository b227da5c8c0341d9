/**
 * `node bench/stats-explain.ts` (DATABASE_URL required): migrates a fresh schema, seeds it as the
 * `stats` bench row does (100k users, 1M messages) and prints `EXPLAIN (ANALYZE, BUFFERS)` of every
 * statement a `GET /moderation/stats` runs on PostgreSQL, then drops the schema (STATS_KEEP=1 keeps
 * it and prints its name). The statements are written out here as the adapters send them, with the
 * parameters the route passes for today: keep them in step with PgTallies, PgGuildsMembers,
 * PgDiscoveryRepo and PgBillingRepo.
 */
import { PgDatabase } from "@veche/postgres"
import { Effect, Redacted } from "effect"
import * as Pg from "./lib/Pg.ts"
import * as StatsSeed from "./lib/StatsSeed.ts"

const url = process.env.DATABASE_URL ?? ""
if (url === "") throw new Error("DATABASE_URL is required")
const schema = `veche_stats_explain_${Date.now()}`

await Effect.runPromise(
  Effect.scoped(Effect.asVoid(Effect.provide(Effect.void, PgDatabase.layer({ url: Redacted.make(url), schema }))))
)
console.log(`seeded in ${await StatsSeed.seed(url, schema)} s (schema ${schema})`)

const pool = Pg.pool(url, { schema, max: 1 })
const moscowToday = "(now() AT TIME ZONE 'UTC' + interval '3 hours')::date"
const top = await pool.query<{ readonly id: string }>({
  text: `SELECT guild_id::text AS id FROM stats_guild_days WHERE day >= ${moscowToday} - 6
         GROUP BY guild_id ORDER BY sum(messages) DESC, guild_id LIMIT 10`
})
const topIds = `'{${top.rows.map((row) => row.id).join(",")}}'::bigint[]`

const statements: ReadonlyArray<readonly [string, string]> = [
  [
    "counters, running totals, active users and the week's top guilds (PgTallies.snapshot)",
    `SELECT
       (SELECT COALESCE(json_agg(json_build_array(d.day, d.counter, d.value)), '[]') FROM (
          SELECT day::text AS day, counter, sum(value)::float8 AS value FROM stats_days
          WHERE day BETWEEN ${moscowToday} - 29 AND ${moscowToday}
          GROUP BY day, counter HAVING sum(value) <> 0) AS d) AS days,
       (SELECT COALESCE(json_agg(json_build_array(gauge, value::float8)), '[]') FROM stats_gauges) AS gauges,
       (SELECT COALESCE(json_agg(json_build_array(t.guild_id::text, t.messages, t.active) ORDER BY t.messages DESC, t.guild_id), '[]')
        FROM (
          SELECT g.guild_id, sum(g.messages::int4)::float8 AS messages, (count(*) OVER ())::float8 AS active
          FROM stats_guild_days AS g WHERE g.day >= ${moscowToday} - 6
          GROUP BY g.guild_id ORDER BY 2 DESC, g.guild_id LIMIT 10) AS t) AS guilds`
  ],
  [
    "the top guilds' names and member counts (GuildsRepo.summaries)",
    `SELECT id, name, member_count AS n FROM guilds WHERE id = ANY(${topIds})`
  ],
  [
    "listed guilds (DiscoveryRepo.listedCount)",
    "SELECT count(*)::int AS n FROM discovery_listings WHERE state = 'listed'"
  ],
  [
    "money (BillingRepo.money)",
    `SELECT (SELECT count(*) FROM billing_plus WHERE premium_until > now())::int AS plus_active,
            (SELECT count(*) FROM billing_boosts WHERE ends_at > now())::int AS boosts,
            (SELECT COALESCE(sum(amount_rub), 0) FROM billing_orders
              WHERE status = 'succeeded' AND paid_at >= date_trunc('month', now()))::int AS paid`
  ]
]

try {
  for (const [what, text] of statements) {
    const plan = await pool.query<{ readonly "QUERY PLAN": string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${text}` })
    console.log(`\n-- ${what}\n${plan.rows.map((row) => row["QUERY PLAN"]).join("\n")}`)
  }
} finally {
  if (process.env.STATS_KEEP !== "1") await pool.query({ text: `DROP SCHEMA ${schema} CASCADE` })
  await pool.end()
}
