/**
 * GuildsRepo.memberSnapshot on PostgreSQL: the guild row with its member count, the member's own
 * record and the guild's roles and channels (by position, as `roles` and `channels` list them) in
 * one statement, the lists as JSON aggregates. A session's GUILD_CREATE took five statements for
 * this (each with its own round trip through the SQL client and its own row decoding); it is read
 * for every guild of every IDENTIFY. Ids travel as text and times as epoch milliseconds (JSON
 * numbers would round a snowflake), truncated as the driver truncates a timestamp's microseconds.
 */
import type { GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Effect, Option, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import {
  CHANNEL_JSON,
  ChannelJson,
  MEMBER_JSON,
  MemberJson,
  ROLES_OF_GUILD,
  RoleJson,
  toChannel,
  toMember,
  toRole
} from "./GuildJsonRows.ts"
import { GuildRow, toGuild } from "./GuildRows.ts"

const SnapshotRow = Schema.Struct({
  ...GuildRow.fields,
  member_count: Schema.Int,
  member: Schema.NullOr(MemberJson),
  roles: Schema.Array(RoleJson),
  channels: Schema.Array(ChannelJson)
})
const snapshotRows = Schema.decodeUnknownEffect(Schema.Array(SnapshotRow))

export const make = (sql: SqlClient.SqlClient): Pick<GuildsRepo.GuildsRepo["Service"], "memberSnapshot"> => ({
  memberSnapshot: (guildId, userId) =>
    sql`
      SELECT g.*,
        (SELECT ${sql.unsafe(MEMBER_JSON)}
           FROM guild_members m WHERE m.guild_id = g.id AND m.user_id = ${userId}) AS member,
        ${sql.unsafe(ROLES_OF_GUILD)} AS roles,
        (SELECT coalesce(json_agg(${sql.unsafe(CHANNEL_JSON)} ORDER BY c.position, c.id), '[]'::json)
           FROM guild_channels c WHERE c.guild_id = g.id) AS channels
      FROM guilds g WHERE g.id = ${guildId}`.pipe(
      Effect.flatMap(snapshotRows),
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined || row.member === null) return Option.none()
        const id = Snowflake.Snowflake.make(String(row.id))
        return Option.some({
          guild: toGuild(row),
          member: toMember(id, userId, row.member),
          roles: row.roles.map((role) => toRole(id, role)),
          channels: row.channels.map((channel) => toChannel(id, channel)),
          memberCount: row.member_count
        })
      }),
      Effect.orDie
    )
})
