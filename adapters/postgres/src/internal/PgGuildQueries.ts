/**
 * Reads and writes that several parts of the guild repository share: the join checks, adding and
 * dropping a member with the guild's member count (and a departing bot's managed roles), forgetting
 * a deleted role, finding a member or a guild, invite liveness (in
 * TypeScript and in SQL) and paging by id.
 */
import type { Guild, GuildsRepo } from "@veche/guilds"
import type { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { date, memberRecord } from "./GuildRecords.ts"
import { checksRows, guildRows, memberRows, roleRows, toGuild, toMember, toRole } from "./GuildRows.ts"
import type { Locks } from "./PgGuildLocks.ts"

/** Whether an invite can still be used at `now` (the same rule as the SQL `live` condition). */
export const isLive = (invite: Guild.Invite, now: DateTime.Utc) =>
  (invite.maxAge === 0 ||
    DateTime.toEpochMillis(invite.createdAt) + invite.maxAge * 1000 > DateTime.toEpochMillis(now)) &&
  (invite.maxUses === 0 || invite.uses < invite.maxUses)

export const make = (sql: SqlClient.SqlClient, { run }: Locks) => {
  /** Whether the user is banned from the guild and how many guilds they are in. */
  const joinChecks = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
    Effect.map(
      checksRows(sql`
        SELECT
          EXISTS (SELECT 1 FROM guild_bans WHERE guild_id = ${guildId} AND user_id = ${userId}) AS banned,
          (SELECT count(*)::integer FROM guild_members WHERE user_id = ${userId}) AS joined`),
      (rows) => rows[0] ?? { banned: false, joined: 0 }
    )
  /** Inserts the member and counts them, in one statement (the guild row is locked by the caller). */
  const addMember = (member: Guild.Member) =>
    run(sql`
      WITH added AS (INSERT INTO guild_members ${sql.insert(memberRecord(member))} RETURNING guild_id)
      UPDATE guilds SET member_count = member_count + (SELECT count(*) FROM added)::integer
      WHERE id = ${member.guildId}`)
  /** Takes the role from every member and channel overwrite (the role row itself is gone already). */
  const forgetRole = (guildId: Snowflake.Snowflake, roleId: Snowflake.Snowflake) =>
    Effect.andThen(
      // role_ids holds ids as JSON strings: `-` drops the matching element.
      run(sql`
        UPDATE guild_members SET role_ids = role_ids - ${roleId}::text
        WHERE guild_id = ${guildId} AND role_ids ? ${roleId}::text`),
      run(sql`
        UPDATE guild_channels SET overwrites = COALESCE(
          (SELECT jsonb_agg(o ORDER BY n) FROM jsonb_array_elements(overwrites) WITH ORDINALITY AS e (o, n)
           WHERE NOT (o ->> 'id' = ${roleId}::text AND o ->> 'type' = '0')),
          '[]'::jsonb)
        WHERE guild_id = ${guildId}
          AND overwrites @> jsonb_build_array(jsonb_build_object('id', ${roleId}::text, 'type', 0))`)
    )
  /**
   * Deletes the membership and uncounts it, and deletes the managed roles of a departing bot: the
   * one step every way out of a guild shares (the caller holds the guild row). None when there was
   * no membership.
   */
  const dropMember = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
    Effect.gen(function* () {
      const dropped = yield* run(sql`
        WITH dropped AS (
          DELETE FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${userId} RETURNING guild_id)
        UPDATE guilds SET member_count = member_count - (SELECT count(*) FROM dropped)::integer
        WHERE id = ${guildId} AND EXISTS (SELECT 1 FROM dropped)
        RETURNING id`)
      if (dropped.length === 0) return Option.none<GuildsRepo.Departure>()
      const roles = yield* roleRows(sql`
        DELETE FROM guild_roles WHERE guild_id = ${guildId} AND managed AND bot_id = ${userId} RETURNING *`)
      const roleIds = roles.map((row) => toRole(row).id)
      yield* Effect.forEach(roleIds, (roleId) => forgetRole(guildId, roleId), { discard: true })
      return Option.some<GuildsRepo.Departure>({ roleIds })
    })
  const findMember = (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) =>
    Effect.map(
      memberRows(sql`SELECT * FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${userId}`),
      (rows) => Option.map(Option.fromNullishOr(rows[0]), toMember)
    )
  const findGuild = (guildId: Snowflake.Snowflake) =>
    Effect.map(guildRows(sql`SELECT * FROM guilds WHERE id = ${guildId}`), (rows) =>
      Option.map(Option.fromNullishOr(rows[0]), toGuild)
    )
  /** The SQL side of `isLive`, for the invites table. */
  const live = (now: DateTime.Utc) => sql`
    (max_age = 0 OR created_at + max_age * interval '1 second' > ${date(now)})
    AND (max_uses = 0 OR uses < max_uses)`
  /** Filters of a page by `column` (after, before) and its order: with only `before`, read backwards. */
  const pageOf = (column: "g.id" | "user_id", page: Guild.Page) => {
    const key = sql.literal(column)
    const backwards = page.before !== undefined && page.after === undefined
    return {
      where: sql`${page.after === undefined ? sql`` : sql`AND ${key} > ${page.after}`}
        ${page.before === undefined ? sql`` : sql`AND ${key} < ${page.before}`}`,
      order: sql`ORDER BY ${key} ${backwards ? sql`DESC` : sql`ASC`} LIMIT ${Math.max(0, page.limit)}`,
      ascending: <A>(rows: ReadonlyArray<A>) => (backwards ? [...rows].reverse() : rows)
    }
  }
  return { joinChecks, addMember, forgetRole, dropMember, findMember, findGuild, live, pageOf }
}

export type Queries = ReturnType<typeof make>
