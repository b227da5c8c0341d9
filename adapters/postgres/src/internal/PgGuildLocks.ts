/**
 * The guild repository's transactions and locks. Locks are always taken in one order (see
 * PgGuildsRepo's header): the user's advisory lock, then the guild row, then rows inside the guild.
 */
import { GuildsErrors } from "@veche/guilds"
import type { Snowflake } from "@veche/platform"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** The guild was deleted after the domain's checks (its row lock finds nothing). */
export const noGuild = Effect.fail(new GuildsErrors.NoSuchGuild())

export const make = (sql: SqlClient.SqlClient) => {
  /** One transaction; its domain refusals stay typed, SQL failures become defects. */
  const transaction = <A, E>(body: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    sql.withTransaction(body).pipe(Effect.catchTag("SqlError", Effect.die)) as Effect.Effect<A, E>
  const run = (statement: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(statement)

  /** The user's guild-cap lock, first in the lock order. */
  const lockUser = (userId: Snowflake.Snowflake) => run(sql`SELECT pg_advisory_xact_lock(${userId}::bigint)`)
  /** The guild row's lock (false when there is no such guild), second in the lock order. */
  const lockGuild = (guildId: Snowflake.Snowflake) =>
    Effect.map(run(sql`SELECT id FROM guilds WHERE id = ${guildId} FOR NO KEY UPDATE`), (rows) => rows.length > 0)
  return { transaction, run, lockUser, lockGuild }
}

export type Locks = ReturnType<typeof make>
