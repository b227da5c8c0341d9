/**
 * The statistics read rollup rows only (migration 0026 made the tables):
 * - `stats_user_active.prev_day`: the day a user's first request of a new day moved them from,
 *   handed back by the same upsert, so the `last_active` counter (users whose last active day is
 *   that day) moves with the row: +1 on the new day, -1 on the old. Users active since a day are then
 *   the sum of a few `stats_days` rows, not a count over every user's row.
 * - `stats_jobs`: when each periodic job last ran (the running totals' recount), so one node runs
 *   it per period whatever the number of nodes and restarts.
 * The `last_active` rows are filled from the users' last days as they stand.
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// As PgTallies.SHARDS: a user's rows sit on the shard of their id.
const SHARDS = 16

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE stats_user_active ADD COLUMN prev_day DATE`
  yield* sql`
    INSERT INTO stats_days (day, counter, shard, value)
    SELECT day, 'last_active', user_id % ${SHARDS}, count(*) FROM stats_user_active GROUP BY 1, 3`
  // The (day) index served the count this replaces; nothing reads the table by day any more.
  yield* sql`DROP INDEX stats_user_active_day`
  yield* sql`CREATE TABLE stats_jobs (job TEXT PRIMARY KEY, ran_at TIMESTAMPTZ NOT NULL)`
  yield* sql`INSERT INTO stats_jobs (job, ran_at) VALUES ('recount_gauges', '-infinity')`
})
