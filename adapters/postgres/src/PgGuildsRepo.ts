/**
 * GuildsRepo on PostgreSQL (migration 0013). A guild and its parts are inserted in one transaction
 * that first takes an advisory lock on the owner's id and counts their memberships, so concurrent
 * creations (and, later, joins, which take the same lock) never pass the per-user cap.
 */
import { Guild, GuildsErrors, GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"

const id = (n: bigint) => Snowflake.Snowflake.make(String(n))
const optionalId = (n: bigint | null) => (n === null ? null : id(n))

const GuildRow = Schema.Struct({
  id: Schema.BigInt,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  owner_id: Schema.BigInt,
  verification_level: Guild.Guild.fields.verificationLevel,
  system_channel_id: Schema.NullOr(Schema.BigInt),
  created_at: Schema.Date
})
const RoleRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  name: Schema.String,
  permissions: Schema.String,
  position: Schema.Int,
  color: Schema.Int,
  hoist: Schema.Boolean,
  mentionable: Schema.Boolean,
  managed: Schema.Boolean
})
const StoredOverwrite = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals([0, 1]),
  allow: Schema.String,
  deny: Schema.String
})
const ChannelRow = Schema.Struct({
  id: Schema.BigInt,
  guild_id: Schema.BigInt,
  type: Guild.ChannelType,
  name: Schema.String,
  position: Schema.Int,
  parent_id: Schema.NullOr(Schema.BigInt),
  topic: Schema.NullOr(Schema.String),
  nsfw: Schema.Boolean,
  overwrites: Schema.Array(StoredOverwrite)
})
const MemberRow = Schema.Struct({
  guild_id: Schema.BigInt,
  user_id: Schema.BigInt,
  nick: Schema.NullOr(Schema.String),
  role_ids: Schema.Array(Schema.String),
  joined_at: Schema.Date
})

const decode = <S extends Schema.Top>(schema: S) => {
  const rows = Schema.decodeUnknownEffect(Schema.Array(schema))
  return (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) =>
    Effect.orDie(Effect.flatMap(query, rows)) as Effect.Effect<ReadonlyArray<S["Type"]>>
}
const guildRows = decode(GuildRow)
const roleRows = decode(RoleRow)
const channelRows = decode(ChannelRow)
const memberRows = decode(MemberRow)

export const layer: Layer.Layer<GuildsRepo.GuildsRepo, never, SqlClient.SqlClient> = Layer.effect(
  GuildsRepo.GuildsRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const date = DateTime.toDateUtc

    const create: GuildsRepo.GuildsRepo["Service"]["create"] = ({ guild, everyone, channels, owner }) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(${owner.userId}::bigint)`
            const [count] = yield* sql<{ readonly n: string }>`
              SELECT count(*)::text AS n FROM guild_members WHERE user_id = ${owner.userId}`
            if (Number(count?.n ?? 0) >= Guild.MAX_GUILDS_PER_USER) return false
            yield* sql`INSERT INTO guilds ${sql.insert({
              id: guild.id,
              name: guild.name,
              icon: guild.icon,
              banner: guild.banner,
              description: guild.description,
              owner_id: guild.ownerId,
              verification_level: guild.verificationLevel,
              system_channel_id: guild.systemChannelId,
              created_at: date(guild.createdAt)
            })}`
            yield* sql`INSERT INTO guild_roles ${sql.insert({
              id: everyone.id,
              guild_id: everyone.guildId,
              name: everyone.name,
              permissions: everyone.permissions.toString(),
              position: everyone.position,
              color: everyone.color,
              hoist: everyone.hoist,
              mentionable: everyone.mentionable,
              managed: everyone.managed
            })}`
            for (const channel of channels) {
              yield* sql`INSERT INTO guild_channels ${sql.insert({
                id: channel.id,
                guild_id: channel.guildId,
                type: channel.type,
                name: channel.name,
                position: channel.position,
                parent_id: channel.parentId,
                topic: channel.topic,
                nsfw: channel.nsfw,
                overwrites: JSON.stringify(
                  channel.overwrites.map((o) => ({
                    id: o.id,
                    type: o.type,
                    allow: o.allow.toString(),
                    deny: o.deny.toString()
                  }))
                )
              })}`
            }
            yield* sql`INSERT INTO guild_members ${sql.insert({
              guild_id: owner.guildId,
              user_id: owner.userId,
              nick: owner.nick,
              role_ids: JSON.stringify(owner.roleIds),
              joined_at: date(owner.joinedAt)
            })}`
            return true
          })
        )
        .pipe(
          Effect.orDie,
          Effect.flatMap((created) => (created ? Effect.void : Effect.fail(new GuildsErrors.GuildLimitReached())))
        )

    return GuildsRepo.GuildsRepo.of({
      create,
      find: (guildId) =>
        Effect.map(guildRows(sql`SELECT * FROM guilds WHERE id = ${guildId}`), (rows) =>
          Option.map(Option.fromNullishOr(rows[0]), (row) => ({
            id: id(row.id),
            name: row.name,
            icon: row.icon,
            banner: row.banner,
            description: row.description,
            ownerId: id(row.owner_id),
            verificationLevel: row.verification_level,
            systemChannelId: optionalId(row.system_channel_id),
            createdAt: DateTime.fromDateUnsafe(row.created_at)
          }))
        ),
      roles: (guildId) =>
        Effect.map(roleRows(sql`SELECT * FROM guild_roles WHERE guild_id = ${guildId} ORDER BY position, id`), (rows) =>
          rows.map((row) => ({
            id: id(row.id),
            guildId: id(row.guild_id),
            name: row.name,
            permissions: BigInt(row.permissions),
            position: row.position,
            color: row.color,
            hoist: row.hoist,
            mentionable: row.mentionable,
            managed: row.managed
          }))
        ),
      channels: (guildId) =>
        Effect.map(
          channelRows(sql`SELECT * FROM guild_channels WHERE guild_id = ${guildId} ORDER BY position, id`),
          (rows) =>
            rows.map((row) => ({
              id: id(row.id),
              guildId: id(row.guild_id),
              type: row.type,
              name: row.name,
              position: row.position,
              parentId: optionalId(row.parent_id),
              topic: row.topic,
              nsfw: row.nsfw,
              overwrites: row.overwrites.map((o) => ({
                id: Snowflake.Snowflake.make(o.id),
                type: o.type,
                allow: BigInt(o.allow),
                deny: BigInt(o.deny)
              }))
            }))
        ),
      member: (guildId, userId) =>
        Effect.map(
          memberRows(sql`SELECT * FROM guild_members WHERE guild_id = ${guildId} AND user_id = ${userId}`),
          (rows) =>
            Option.map(Option.fromNullishOr(rows[0]), (row) => ({
              guildId: id(row.guild_id),
              userId: id(row.user_id),
              nick: row.nick,
              roleIds: row.role_ids.map((roleId) => Snowflake.Snowflake.make(roleId)),
              joinedAt: DateTime.fromDateUnsafe(row.joined_at)
            }))
        ),
      memberCount: (guildId) =>
        sql<{ readonly n: string }>`SELECT count(*)::text AS n FROM guild_members WHERE guild_id = ${guildId}`.pipe(
          Effect.map((rows) => Number(rows[0]?.n ?? 0)),
          Effect.orDie
        ),
      guildsOf: (userId) =>
        sql<{ readonly guild_id: string }>`
          SELECT guild_id::text AS guild_id FROM guild_members WHERE user_id = ${userId} ORDER BY joined_at, guild_id`.pipe(
          Effect.map((rows) => rows.map((row) => Snowflake.Snowflake.make(row.guild_id))),
          Effect.orDie
        ),
      ownsGuildsWithOthers: (userId) =>
        sql`
          SELECT 1 FROM guilds g
          WHERE g.owner_id = ${userId}
            AND EXISTS (SELECT 1 FROM guild_members m WHERE m.guild_id = g.id AND m.user_id <> ${userId})
          LIMIT 1`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    })
  })
)
