/**
 * The statistics bench's data: 100k users, 1000 guilds and 1M messages over the last 30 Moscow
 * days, written with generate_series straight into the source tables, and the rollups the domains
 * keep on write (migrations 0026 and 0029) filled from them as the migrations' backfills do. Seconds, not
 * the hours the API would take.
 */
import * as Pg from "./Pg.ts"

export const USERS = 100_000
export const GUILDS = 1_000
export const MESSAGES = 1_000_000

// Ids far above any the servers mint during the run.
const BASE = "2000000000000000000"
// Moscow keeps UTC+3 all year (as MoscowDay and the migration).
const MOSCOW_DAY = (column: string) => `(${column} AT TIME ZONE 'UTC' + interval '3 hours')::date`

const STATEMENTS = [
  `INSERT INTO users (id, username, display_name, created_at, bot)
   SELECT ${BASE}::bigint + n, 'bench_stats_' || n, NULL, now() - random() * interval '29 days', false
   FROM generate_series(1, ${USERS}) AS n`,
  `INSERT INTO guilds (id, name, owner_id, verification_level, created_at, member_count)
   SELECT ${BASE}::bigint + 1000000 + n, 'Bench guild ' || n, ${BASE}::bigint + n, 0,
          now() - random() * interval '29 days', 1 + (${USERS} / ${GUILDS})
   FROM generate_series(1, ${GUILDS}) AS n`,
  // A few guilds carry most messages (a cube of a uniform draw), as real platforms look.
  `INSERT INTO messages (id, channel_id, guild_id, author_id, author_bot, content, embeds, mention_user_ids,
                         mention_role_ids, mention_everyone, nonce, tts, type, referenced_message_id, pinned_at,
                         edited_at, created_at)
   SELECT ${BASE}::bigint + 10000000 + n, g, g, ${BASE}::bigint + 1 + (n % ${USERS}), false, 'hello', '[]', '[]', '[]',
          false, NULL, false, 0, NULL, NULL, NULL, now() - random() * interval '29 days'
   FROM (SELECT n, ${BASE}::bigint + 1000000 + 1 + floor(power(random(), 3) * ${GUILDS})::bigint AS g
         FROM generate_series(1, ${MESSAGES}) AS n) AS drawn`,
  `INSERT INTO stats_guild_days (day, guild_id, messages)
   SELECT ${MOSCOW_DAY("created_at")}, guild_id, count(*) FROM messages GROUP BY 1, 2`,
  `INSERT INTO stats_days (day, counter, shard, value)
   SELECT day, 'messages', guild_id % 16, sum(messages) FROM stats_guild_days GROUP BY 1, 3 ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + excluded.value`,
  `INSERT INTO stats_days (day, counter, shard, value)
   SELECT ${MOSCOW_DAY("created_at")}, c.counter, 0, count(*) FROM users
   CROSS JOIN (VALUES ('new_users'), ('registrations_confirmed')) AS c (counter)
   WHERE username LIKE 'bench_stats_%' GROUP BY 1, 2 ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + excluded.value`,
  `INSERT INTO stats_days (day, counter, shard, value)
   SELECT ${MOSCOW_DAY("created_at")}, 'new_guilds', 0, count(*) FROM guilds GROUP BY 1 ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + excluded.value`,
  `INSERT INTO stats_user_active (user_id, day)
   SELECT id, ${MOSCOW_DAY("now()")} - floor(random() * 30)::int FROM users WHERE username LIKE 'bench_stats_%'`,
  `INSERT INTO stats_days (day, counter, shard, value)
   SELECT day, c.counter, user_id % 16, count(*) FROM stats_user_active
   CROSS JOIN (VALUES ('active'), ('last_active')) AS c (counter)
   GROUP BY 1, 2, 3 ON CONFLICT (day, counter, shard) DO UPDATE SET value = stats_days.value + excluded.value`,
  `INSERT INTO stats_gauges (gauge, value) VALUES ('users', ${USERS}), ('users_deleted', 0), ('with_email', 0), ('guilds', ${GUILDS})
   ON CONFLICT (gauge) DO UPDATE SET value = stats_gauges.value + excluded.value`,
  // As autovacuum leaves a live database: statistics, and the visibility map index-only scans rely on.
  "VACUUM ANALYZE"
]

/** Seeds the schema (migrated already by a server of the run); answers the seconds it took. */
export const seed = async (url: string, schema: string): Promise<number> => {
  const started = Date.now()
  const pool = Pg.pool(url, { schema, max: 1 })
  try {
    for (const text of STATEMENTS) await pool.query({ text })
  } finally {
    await pool.end()
  }
  return Math.round((Date.now() - started) / 1000)
}
