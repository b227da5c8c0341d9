/**
 * The statistics' rollups (`Tallies` in @veche/platform) on PostgreSQL, in the tables of migration
 * 0026. Each write is one statement; a failure is logged and never fails the write it follows.
 * Counters bumped by many writers at once (messages, active users) go to one of `SHARDS` rows per
 * day, picked by the guild or user id, and are summed on read. A user's activity is written once a
 * day per node: this node remembers who it has already counted today.
 */
import { MoscowDay, Snowflake, Tallies } from "@veche/platform"
import { Effect, Layer, Schema } from "effect"
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
  "peak_online"
]
const isCounter = (name: string): name is Tallies.Counter => (COUNTERS as ReadonlyArray<string>).includes(name)

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
        return write(
          "an active user",
          sql`
            WITH first_today AS (
              INSERT INTO stats_user_active (user_id, day) VALUES (${userId}, ${day}::date)
              ON CONFLICT (user_id) DO UPDATE SET day = excluded.day WHERE stats_user_active.day < excluded.day
              RETURNING 1
            )
            INSERT INTO stats_days (day, counter, shard, value)
            SELECT ${day}::date, 'active', ${shardOf(userId)}, 1 FROM first_today
            ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + 1`.pipe(
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
          WHERE day BETWEEN ${from}::date AND ${to}::date GROUP BY day, counter`.pipe(
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
          SELECT count(*)::float8 AS n FROM stats_user_active WHERE day >= ${day}::date`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0),
          Effect.orDie
        ),
      guildsSince: (day, top) =>
        sql<{ readonly guild_id: string; readonly messages: number; readonly active: number }>`
          SELECT guild_id::text AS guild_id, sum(messages)::float8 AS messages, (count(*) OVER ())::float8 AS active
          FROM stats_guild_days WHERE day >= ${day}::date
          GROUP BY guild_id ORDER BY sum(messages) DESC, guild_id LIMIT ${top}`.pipe(
          Effect.map((rows) => ({
            active: rows[0]?.active ?? 0,
            top: rows.map((row) => ({
              guildId: Snowflake.Snowflake.make(row.guild_id),
              messages: row.messages
            }))
          })),
          Effect.orDie
        )
    }
    return shape
  })
)
