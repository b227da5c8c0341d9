/**
 * The statistics' rollups (`Tallies` in @veche/platform), kept on write by the domains:
 * - `stats_days`: per Moscow day and counter. Counters many writers bump at once (messages, active
 *   users) spread over a few shard rows, summed on read, so concurrent writers do not queue on one row.
 * - `stats_gauges`: running totals (users, deleted users, bound e-mail addresses, guilds).
 * - `stats_guild_days`: messages per guild and day (active guilds, the top of the week).
 * - `stats_user_active`: each user's last active day; counting those on or after a day is one index
 *   range, and a user's first request of a day is the only write it costs.
 * What the existing tables already tell is filled in here once; activity, the online peak and the
 * registration funnel start from zero.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE stats_days (
      day     DATE NOT NULL,
      counter TEXT NOT NULL,
      shard   SMALLINT NOT NULL,
      value   BIGINT NOT NULL,
      PRIMARY KEY (day, counter, shard)
    )`
  yield* sql`CREATE TABLE stats_gauges (gauge TEXT PRIMARY KEY, value BIGINT NOT NULL)`
  yield* sql`
    CREATE TABLE stats_guild_days (
      day      DATE NOT NULL,
      guild_id BIGINT NOT NULL,
      messages BIGINT NOT NULL,
      PRIMARY KEY (day, guild_id)
    )`
  yield* sql`CREATE TABLE stats_user_active (user_id BIGINT PRIMARY KEY, day DATE NOT NULL)`
  yield* sql`CREATE INDEX stats_user_active_day ON stats_user_active (day)`

  // Moscow keeps UTC+3 all year: a day is the UTC time shifted by three hours (as MoscowDay does).
  yield* sql`
    INSERT INTO stats_days (day, counter, shard, value)
    SELECT (u.created_at AT TIME ZONE 'UTC' + interval '3 hours')::date, c.counter, 0, count(*)
    FROM users u JOIN credentials ON credentials.user_id = u.id
    CROSS JOIN (VALUES ('new_users'), ('registrations_confirmed')) AS c (counter)
    GROUP BY 1, 2`
  yield* sql`
    INSERT INTO stats_days (day, counter, shard, value)
    SELECT (created_at AT TIME ZONE 'UTC' + interval '3 hours')::date, 'new_guilds', 0, count(*)
    FROM guilds GROUP BY 1`
  yield* sql`
    INSERT INTO stats_guild_days (day, guild_id, messages)
    SELECT (created_at AT TIME ZONE 'UTC' + interval '3 hours')::date, guild_id, count(*)
    FROM messages GROUP BY 1, 2`
  yield* sql`
    INSERT INTO stats_days (day, counter, shard, value)
    SELECT day, 'messages', 0, sum(messages) FROM stats_guild_days GROUP BY day`
  yield* sql`
    INSERT INTO stats_gauges (gauge, value)
    SELECT 'users', count(*) FILTER (WHERE password_hash <> '!erased') FROM credentials
    UNION ALL SELECT 'users_deleted', count(*) FILTER (WHERE password_hash = '!erased') FROM credentials
    UNION ALL SELECT 'with_email', count(*) FILTER (WHERE email IS NOT NULL) FROM credentials
    UNION ALL SELECT 'guilds', count(*) FROM guilds`
})
