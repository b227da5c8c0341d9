/**
 * GuildsRepo on PostgreSQL, its guilds and members: creation under the per-user cap, update,
 * transfer, removal, a user's guilds, member counts (kept in the guild row), and joining, editing
 * and leaving.
 */
import { GuildsErrors, type GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import {
  channelRecord,
  columnsOf,
  guildColumns,
  guildRecord,
  memberColumns,
  memberRecord,
  roleRecord
} from "./GuildRecords.ts"
import {
  countRows,
  guildCountRows,
  guildRows,
  guildSummaryRows,
  id,
  memberRows,
  toGuild,
  toMember
} from "./GuildRows.ts"
import { type Locks, noGuild } from "./PgGuildLocks.ts"
import type { Queries } from "./PgGuildQueries.ts"
import * as PgGuildSnapshot from "./PgGuildSnapshot.ts"

type Service = GuildsRepo.GuildsRepo["Service"]

export const make = (sql: SqlClient.SqlClient, locks: Locks, queries: Queries): GuildsRepo.GuildsAndMembersPart => {
  const { transaction, run, lockUser, lockGuild } = locks
  const { joinChecks, addMember, dropMember, findMember, findGuild, pageOf } = queries

  const guildsJoined = (userId: Snowflake.Snowflake) =>
    Effect.map(
      countRows(sql`SELECT count(*)::integer AS n FROM guild_members WHERE user_id = ${userId}`),
      (rows) => rows[0]?.n ?? 0
    )

  // --- guilds

  const create: Service["create"] = ({ guild, everyone, channels, owner }, cap) =>
    transaction(
      Effect.gen(function* () {
        yield* lockUser(owner.userId)
        if ((yield* guildsJoined(owner.userId)) >= cap) {
          return yield* new GuildsErrors.GuildLimitReached()
        }
        yield* run(sql`INSERT INTO guilds ${sql.insert(guildRecord(guild, 1))}`)
        yield* run(sql`INSERT INTO guild_roles ${sql.insert(roleRecord(everyone))}`)
        const [first, ...rest] = channels.map(channelRecord)
        if (first !== undefined) yield* run(sql`INSERT INTO guild_channels ${sql.insert([first, ...rest])}`)
        yield* run(sql`INSERT INTO guild_members ${sql.insert(memberRecord(owner))}`)
      })
    )

  const update: Service["update"] = (guildId, patch) => {
    const set = columnsOf(patch, guildColumns)
    if (Object.keys(set).length === 0) return findGuild(guildId)
    return Effect.map(guildRows(sql`UPDATE guilds SET ${sql.update(set)} WHERE id = ${guildId} RETURNING *`), (rows) =>
      Option.map(Option.fromNullishOr(rows[0]), toGuild)
    )
  }

  // Membership is read after the guild row is locked, and every removal of a member holds that
  // lock: the statement's fresh snapshot sees any removal that won the lock first.
  const transfer: Service["transfer"] = (guildId, fromOwnerId, toUserId) =>
    transaction(
      Effect.gen(function* () {
        yield* lockGuild(guildId)
        const rows = yield* guildRows(sql`
          UPDATE guilds SET owner_id = ${toUserId}
          WHERE id = ${guildId} AND owner_id = ${fromOwnerId}
            AND EXISTS (SELECT 1 FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${toUserId})
          RETURNING *`)
        return Option.map(Option.fromNullishOr(rows[0]), toGuild)
      })
    )

  // Roles, channels, members, bans and invites go with the guild (ON DELETE CASCADE).
  const remove: Service["remove"] = (guildId) =>
    Effect.map(run(sql`DELETE FROM guilds WHERE id = ${guildId} RETURNING id`), (rows) => rows.length > 0)

  const guildsPage: Service["guildsPage"] = (userId, page) => {
    const { where, order, ascending } = pageOf("g.id", page)
    return Effect.map(
      guildRows(sql`
        SELECT g.* FROM guild_members m JOIN guilds g ON g.id = m.guild_id
        WHERE m.user_id = ${userId} ${where} ${order}`),
      (rows) => ascending(rows).map(toGuild)
    )
  }

  const memberCounts: Service["memberCounts"] = (guildIds) =>
    guildIds.length === 0
      ? Effect.succeed(new Map())
      : Effect.map(
          // One array parameter: one prepared statement whatever the number of ids.
          guildCountRows(sql`
            SELECT id, member_count AS n FROM guilds WHERE id = ANY(${`{${guildIds.join(",")}}`}::bigint[])`),
          (rows) => new Map(rows.map((row) => [id(row.id), row.n] as const))
        )

  const summaries: Service["summaries"] = (guildIds) =>
    guildIds.length === 0
      ? Effect.succeed(new Map())
      : Effect.map(
          guildSummaryRows(sql`
            SELECT id, name, member_count AS n FROM guilds WHERE id = ANY(${`{${guildIds.join(",")}}`}::bigint[])`),
          (rows) => new Map(rows.map((row) => [id(row.id), { name: row.name, members: row.n }] as const))
        )

  // --- members

  const join: Service["join"] = (member, cap) =>
    transaction(
      Effect.gen(function* () {
        if (cap !== null) yield* lockUser(member.userId)
        if (!(yield* lockGuild(member.guildId))) return yield* noGuild
        if (Option.isSome(yield* findMember(member.guildId, member.userId))) return false
        const checks = yield* joinChecks(member.guildId, member.userId)
        if (checks.banned) return yield* new GuildsErrors.BannedFromGuild()
        if (cap !== null && checks.joined >= cap) return yield* new GuildsErrors.GuildLimitReached()
        yield* addMember(member)
        return true
      })
    )

  const updateMember: Service["updateMember"] = (guildId, userId, patch) => {
    const set = columnsOf(patch, memberColumns)
    if (Object.keys(set).length === 0) return findMember(guildId, userId)
    return Effect.map(
      memberRows(sql`
        UPDATE guild_members SET ${sql.update(set)} WHERE guild_id = ${guildId} AND user_id = ${userId} RETURNING *`),
      (rows) => Option.map(Option.fromNullishOr(rows[0]), toMember)
    )
  }

  const removeMember: Service["removeMember"] = (guildId, userId) =>
    transaction(
      Effect.gen(function* () {
        if (!(yield* lockGuild(guildId))) return Option.none<GuildsRepo.Departure>()
        return yield* dropMember(guildId, userId)
      })
    )

  return {
    create,
    find: findGuild,
    update,
    transfer,
    remove,
    guildsOf: (userId) =>
      sql<{ readonly guild_id: string }>`
        SELECT guild_id::text AS guild_id FROM guild_members WHERE user_id = ${userId} ORDER BY joined_at, guild_id`.pipe(
        Effect.map((rows) => rows.map((row) => Snowflake.Snowflake.make(row.guild_id))),
        Effect.orDie
      ),
    guildsPage,
    ownsGuildsWithOthers: (userId) =>
      sql`
        SELECT 1 FROM guilds g
        WHERE g.owner_id = ${userId}
          AND EXISTS (SELECT 1 FROM guild_members m WHERE m.guild_id = g.id AND m.user_id <> ${userId})
        LIMIT 1`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      ),
    memberCount: (guildId) =>
      Effect.map(countRows(sql`SELECT member_count AS n FROM guilds WHERE id = ${guildId}`), (rows) => rows[0]?.n ?? 0),
    memberCounts,
    summaries,
    ...PgGuildSnapshot.make(sql),

    member: findMember,
    members: (guildId, page) =>
      Effect.map(
        memberRows(sql`
          SELECT * FROM guild_members WHERE guild_id = ${guildId}
          ${page.after === undefined ? sql`` : sql`AND user_id > ${page.after}`}
          ORDER BY user_id LIMIT ${Math.max(0, page.limit)}`),
        (rows) => rows.map(toMember)
      ),
    join,
    updateMember,
    removeMember
  }
}
