/**
 * The statistics' rollups (`Tallies` in @veche/platform) on PostgreSQL, in the tables of migrations
 * 0026 and 0029. Each write is one statement; a failure is logged and never fails the write it
 * follows (the running totals are set right again by `recount`). Counters bumped by many writers at
 * once (messages, active users) go to one of `SHARDS` rows per day, picked by the guild or user id,
 * and are summed on read. A user's activity is written once a day per node: this node remembers who
 * it has already counted today. The statistics read everything in one statement (`snapshot`): the
 * 30 days' rows of `stats_days`, the four totals and the week's `stats_guild_days`, each a range of
 * a primary key, none of them growing with users or messages.
 */
import { MoscowDay, Snowflake, Tallies } from "@veche/platform"
import { DateTime, type Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

export const SHARDS = 16
/** Users remembered as counted today, per node; past this the memory starts afresh. */
const REMEMBERED = 100_000

const shardOf = (id: Snowflake.Snowflake) => Number(BigInt(id) % BigInt(SHARDS))

const DayRow = Schema.Struct({ day: Schema.String, counter: Schema.String, value: Schema.Number })
const COUNTERS: ReadonlyArray<Tallies.Counter> = [
  "new_users",
  "messages",
  "dm_messages",
  "new_guilds",
  "registrations_started",
  "registrations_confirmed",
  "recoveries_started",
  "active",
  "last_active",
  "peak_online"
]
const isCounter = (name: string): name is Tallies.Counter => (COUNTERS as ReadonlyArray<string>).includes(name)
const isGauge = (name: string): name is Tallies.Gauge => (Tallies.GAUGES as ReadonlyArray<string>).includes(name)

/**
 * The snapshot arrives as one row of three JSON values (parsed by the driver): a few hundred small
 * rows cost the driver and a row schema more than the statement itself. Checked here by hand.
 */
const isNumber = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value)
const dayValueOf = (item: unknown): ReadonlyArray<Tallies.DayValue> =>
  Array.isArray(item) && typeof item[0] === "string" && typeof item[1] === "string" && isNumber(item[2])
    ? isCounter(item[1])
      ? [{ day: item[0], counter: item[1], value: item[2] }]
      : []
    : []
const listOf = (value: unknown): ReadonlyArray<unknown> | null => (Array.isArray(value) ? value : null)
const GaugeRow = Schema.Struct({ gauge: Schema.String, value: Schema.Number })
const decodeGauges = Schema.decodeUnknownEffect(Schema.Array(GaugeRow))

/** The recount's row in `stats_jobs` (migration 0029). */
const RECOUNT_JOB = "recount_gauges"

export const layer: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.effect(
  Tallies.Tallies,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const write = (what: string, statement: Effect.Effect<unknown, unknown>) =>
      statement.pipe(
        Effect.asVoid,
        Effect.catchCause((cause) => Effect.logWarning(`statistics: counting ${what} failed`, cause))
      )
    const bump = (day: string, counter: Tallies.Counter, shard: number) => sql`
      INSERT INTO stats_days (day, counter, shard, value) VALUES (${day}::date, ${counter}, ${shard}, 1)
      ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + 1`
    const counted = new Map<Snowflake.Snowflake, string>()

    // One statement, one round trip: the days' counters summed over their shards, the running
    // totals, and the week's guilds summed per guild (int4 sums: a numeric sum of 7000 bigints cost
    // three times as much), the top `top` of them with how many there were (a window count,
    // taken before the LIMIT).
    const snapshot = ({ from, to, guildsFrom, top }: Tallies.SnapshotWindow) =>
      sql<{ readonly days: unknown; readonly gauges: unknown; readonly guilds: unknown }>`
        SELECT
          (SELECT COALESCE(json_agg(json_build_array(d.day, d.counter, d.value)), '[]') FROM (
             SELECT day::text AS day, counter, sum(value)::float8 AS value FROM stats_days
             WHERE day BETWEEN ${from}::date AND ${to}::date
             GROUP BY day, counter HAVING sum(value) <> 0) AS d) AS days,
          (SELECT COALESCE(json_agg(json_build_array(gauge, value::float8)), '[]') FROM stats_gauges) AS gauges,
          (SELECT COALESCE(json_agg(json_build_array(t.guild_id::text, t.messages, t.active) ORDER BY t.messages DESC, t.guild_id), '[]')
           FROM (
             SELECT g.guild_id, sum(g.messages::int4)::float8 AS messages, (count(*) OVER ())::float8 AS active
             FROM stats_guild_days AS g WHERE g.day >= ${guildsFrom}::date
             GROUP BY g.guild_id ORDER BY 2 DESC, g.guild_id LIMIT ${top}) AS t) AS guilds`.pipe(
        Effect.flatMap((rows) => {
          const row = rows[0]
          const days = listOf(row?.days)
          const gaugeList = listOf(row?.gauges)
          const guildList = listOf(row?.guilds)
          if (days === null || gaugeList === null || guildList === null) {
            return Effect.die(new Error("statistics: the snapshot's row is not as written"))
          }
          const gauges = { users: 0, users_deleted: 0, with_email: 0, guilds: 0 }
          for (const item of gaugeList) {
            if (Array.isArray(item) && typeof item[0] === "string" && isGauge(item[0]) && isNumber(item[1])) {
              gauges[item[0]] = item[1]
            }
          }
          let active = 0
          const guilds: Array<Tallies.GuildMessages> = []
          for (const item of guildList) {
            if (Array.isArray(item) && typeof item[0] === "string" && isNumber(item[1]) && isNumber(item[2])) {
              guilds.push({ guildId: Snowflake.Snowflake.make(item[0]), messages: item[1] })
              active = item[2]
            }
          }
          return Effect.succeed<Tallies.Snapshot>({
            days: days.flatMap(dayValueOf),
            gauges,
            guilds: { active, top: guilds }
          })
        }),
        Effect.orDie
      )

    // The totals counted afresh from the tables they follow, as migration 0026 first filled them. The
    // job's row, taken FOR UPDATE SKIP LOCKED and only when due, makes one node run it; the totals'
    // rows, locked before counting, hold the bumps that arrive meanwhile until the new values are in.
    const recount = (at: DateTime.Utc, every: Duration.Duration) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            const due = yield* sql`
              SELECT 1 FROM stats_jobs WHERE job = ${RECOUNT_JOB} AND ran_at <= ${DateTime.toDateUtc(DateTime.subtractDuration(at, every))}
              FOR UPDATE SKIP LOCKED`
            if (due.length === 0) return null
            const before = yield* Effect.flatMap(
              sql`SELECT gauge, value::float8 AS value FROM stats_gauges ORDER BY gauge FOR UPDATE`,
              decodeGauges
            )
            const after = yield* Effect.flatMap(
              sql`
                WITH counted (gauge, value) AS (
                  SELECT 'users', count(*) FILTER (WHERE password_hash <> '!erased') FROM credentials
                  UNION ALL SELECT 'users_deleted', count(*) FILTER (WHERE password_hash = '!erased') FROM credentials
                  UNION ALL SELECT 'with_email', count(*) FILTER (WHERE email IS NOT NULL) FROM credentials
                  UNION ALL SELECT 'guilds', count(*) FROM guilds
                )
                INSERT INTO stats_gauges (gauge, value) SELECT gauge, value FROM counted
                ON CONFLICT (gauge) DO UPDATE SET value = excluded.value
                RETURNING gauge, value::float8 AS value`,
              decodeGauges
            )
            yield* sql`UPDATE stats_jobs SET ran_at = ${DateTime.toDateUtc(at)} WHERE job = ${RECOUNT_JOB}`
            return after.flatMap((row): ReadonlyArray<Tallies.Correction> => {
              const was = Option.fromNullishOr(before.find((old) => old.gauge === row.gauge)).pipe(
                Option.match({ onNone: () => 0, onSome: (old) => old.value })
              )
              return isGauge(row.gauge) && was !== row.value ? [{ gauge: row.gauge, was, now: row.value }] : []
            })
          })
        )
        .pipe(Effect.orDie)

    const shape: Tallies.TalliesShape = {
      count: (counter, at) => write(counter, bump(MoscowDay.of(at), counter, 0)),
      message: ({ guildId, at }) => {
        const day = MoscowDay.of(at)
        if (guildId === null) {
          return write("a direct message", Effect.andThen(bump(day, "messages", 0), bump(day, "dm_messages", 0)))
        }
        return write(
          "a message",
          sql`
            WITH guild_day AS (
              INSERT INTO stats_guild_days (day, guild_id, messages) VALUES (${day}::date, ${guildId}, 1)
              ON CONFLICT (day, guild_id) DO UPDATE SET messages = stats_guild_days.messages + 1
            )
            INSERT INTO stats_days (day, counter, shard, value)
            VALUES (${day}::date, 'messages', ${shardOf(guildId)}, 1)
            ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + 1`
        )
      },
      active: (userId, at) => {
        const day = MoscowDay.of(at)
        const last = counted.get(userId)
        if (last !== undefined && last >= day) return Effect.void
        const shard = shardOf(userId)
        // The upsert moves the user's last day forward (only forward) and hands back the day it left
        // in `prev_day`, read from the row it locked: concurrent first requests of one user move it
        // once, and the counters move with it in the same statement.
        return write(
          "an active user",
          sql`
            WITH moved AS (
              INSERT INTO stats_user_active (user_id, day) VALUES (${userId}, ${day}::date)
              ON CONFLICT (user_id) DO UPDATE SET prev_day = stats_user_active.day, day = excluded.day
              WHERE stats_user_active.day < excluded.day
              RETURNING prev_day
            )
            INSERT INTO stats_days (day, counter, shard, value)
            SELECT ${day}::date, 'active', ${shard}, 1 FROM moved
            UNION ALL SELECT ${day}::date, 'last_active', ${shard}, 1 FROM moved
            UNION ALL SELECT prev_day, 'last_active', ${shard}, -1 FROM moved WHERE prev_day IS NOT NULL
            ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + excluded.value`.pipe(
            Effect.tap(() =>
              Effect.sync(() => {
                if (counted.size >= REMEMBERED) counted.clear()
                counted.set(userId, day)
              })
            )
          )
        )
      },
      peak: (online, at) =>
        online <= 0
          ? Effect.void
          : write(
              "the online peak",
              sql`
                INSERT INTO stats_days (day, counter, shard, value) VALUES (${MoscowDay.of(at)}::date, 'peak_online', 0, ${online})
                ON CONFLICT (day, counter, shard) DO UPDATE SET value = GREATEST(stats_days.value, excluded.value)`
            ),
      gauge: (gauge, delta) =>
        write(
          gauge,
          sql`
            INSERT INTO stats_gauges (gauge, value) VALUES (${gauge}, ${delta})
            ON CONFLICT (gauge) DO UPDATE SET value = stats_gauges.value + excluded.value`
        ),
      days: (from, to) =>
        sql`
          SELECT day::text AS day, counter, sum(value)::float8 AS value FROM stats_days
          WHERE day BETWEEN ${from}::date AND ${to}::date GROUP BY day, counter HAVING sum(value) <> 0`.pipe(
          Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(DayRow))),
          Effect.map((rows) =>
            rows.flatMap((row) =>
              isCounter(row.counter) ? [{ day: row.day, counter: row.counter, value: row.value }] : []
            )
          ),
          Effect.orDie
        ),
      gauges: sql<{ readonly gauge: string; readonly value: number }>`
        SELECT gauge, value::float8 AS value FROM stats_gauges`.pipe(
        Effect.map((rows) => {
          const values = { users: 0, users_deleted: 0, with_email: 0, guilds: 0 }
          for (const row of rows) {
            for (const gauge of Tallies.GAUGES) if (row.gauge === gauge) values[gauge] = row.value
          }
          return values
        }),
        Effect.orDie
      ),
      activeSince: (day) =>
        sql<{ readonly n: number }>`
          SELECT COALESCE(sum(value), 0)::float8 AS n FROM stats_days
          WHERE day >= ${day}::date AND counter = 'last_active'`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      guildsSince: (day, top) =>
        Effect.map(snapshot({ from: day, to: day, guildsFrom: day, top }), (read) => read.guilds),
      snapshot,
      recount
    }
    return shape
  })
)
