/**
 * GuildsRepo on PostgreSQL, its roles: listed by position, added under the per-guild cap (counted
 * under the guild row's lock), edited, and deleted with every member's and overwrite's reference to
 * them.
 */
import { Guild, GuildsErrors, type GuildsRepo } from "@veche/guilds"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { columnsOf, roleColumns, roleRecord } from "./GuildRecords.ts"
import { countRows, roleRows, toRole } from "./GuildRows.ts"
import { type Locks, noGuild } from "./PgGuildLocks.ts"
import type { Queries } from "./PgGuildQueries.ts"

type Service = GuildsRepo.GuildsRepo["Service"]

export const make = (sql: SqlClient.SqlClient, locks: Locks, queries: Queries): GuildsRepo.RolesPart => {
  const { transaction, run, lockGuild } = locks
  const { forgetRole } = queries

  const createRole: Service["createRole"] = (role) =>
    transaction(
      Effect.gen(function* () {
        if (!(yield* lockGuild(role.guildId))) return yield* noGuild
        const [count] = yield* countRows(
          sql`SELECT count(*)::integer AS n FROM guild_roles WHERE guild_id = ${role.guildId}`
        )
        if ((count?.n ?? 0) >= Guild.MAX_ROLES) return yield* new GuildsErrors.RoleLimitReached()
        yield* run(sql`INSERT INTO guild_roles ${sql.insert(roleRecord(role))}`)
      })
    )

  const updateRole: Service["updateRole"] = (guildId, roleId, patch) => {
    const set = columnsOf(patch, roleColumns)
    const query =
      Object.keys(set).length === 0
        ? sql`SELECT * FROM guild_roles WHERE guild_id = ${guildId} AND id = ${roleId}`
        : sql`UPDATE guild_roles SET ${sql.update(set)} WHERE guild_id = ${guildId} AND id = ${roleId} RETURNING *`
    return Effect.map(roleRows(query), (rows) => Option.map(Option.fromNullishOr(rows[0]), toRole))
  }

  const deleteRole: Service["deleteRole"] = (guildId, roleId) =>
    transaction(
      Effect.gen(function* () {
        yield* lockGuild(guildId)
        const deleted = yield* run(
          sql`DELETE FROM guild_roles WHERE guild_id = ${guildId} AND id = ${roleId} RETURNING id`
        )
        if (deleted.length === 0) return false
        yield* forgetRole(guildId, roleId)
        return true
      })
    )

  return {
    roles: (guildId) =>
      Effect.map(roleRows(sql`SELECT * FROM guild_roles WHERE guild_id = ${guildId} ORDER BY position, id`), (rows) =>
        rows.map(toRole)
      ),
    createRole,
    updateRole,
    deleteRole
  }
}
