/**
 * GuildsRepo.channelPlace on PostgreSQL: the channel joined to its guild's row, with the user's
 * membership and the guild's roles (by position, as `roles` lists them) in one statement, as JSON
 * like GuildsRepo.memberSnapshot's (GuildJsonRows.ts). Every channel route (typing, message send)
 * resolves access from these; read apart they took four statements in two round trips.
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

const ChannelPlaceRow = Schema.Struct({
  ...GuildRow.fields,
  channel: ChannelJson,
  member: Schema.NullOr(MemberJson),
  roles: Schema.Array(RoleJson)
})
const channelPlaceRows = Schema.decodeUnknownEffect(Schema.Array(ChannelPlaceRow))

export const make = (sql: SqlClient.SqlClient): Pick<GuildsRepo.GuildsRepo["Service"], "channelPlace"> => ({
  channelPlace: (channelId, userId) =>
    sql`
      SELECT g.*, ${sql.unsafe(CHANNEL_JSON)} AS channel,
        (SELECT ${sql.unsafe(MEMBER_JSON)}
           FROM guild_members m WHERE m.guild_id = g.id AND m.user_id = ${userId}) AS member,
        ${sql.unsafe(ROLES_OF_GUILD)} AS roles
      FROM guild_channels c JOIN guilds g ON g.id = c.guild_id
      WHERE c.id = ${channelId}`.pipe(
      Effect.flatMap(channelPlaceRows),
      Effect.map((rows) => {
        const row = rows[0]
        if (row === undefined) return Option.none()
        const guildId = Snowflake.Snowflake.make(String(row.id))
        return Option.some({
          channel: toChannel(guildId, row.channel),
          guild: toGuild(row),
          roles: row.roles.map((role) => toRole(guildId, role)),
          member: row.member === null ? Option.none() : Option.some(toMember(guildId, userId, row.member))
        })
      }),
      Effect.orDie
    )
})
