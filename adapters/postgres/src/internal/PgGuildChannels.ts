/**
 * GuildsRepo on PostgreSQL, its channels and their overwrites: listed by position, added under the
 * per-guild cap, edited, and deleted with their invites and whatever pointed at them.
 */
import { Guild, GuildsErrors, type GuildsRepo } from "@veche/guilds"
import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import { channelColumns, channelRecord, columnsOf } from "./GuildRecords.ts"
import { channelRows, countRows, id, toChannel } from "./GuildRows.ts"
import * as PgGuildChannelPlace from "./PgGuildChannelPlace.ts"
import { type Locks, noGuild } from "./PgGuildLocks.ts"

type Service = GuildsRepo.GuildsRepo["Service"]

export const make = (sql: SqlClient.SqlClient, locks: Locks): GuildsRepo.ChannelsPart => {
  const { transaction, run, lockGuild } = locks

  const createChannel: Service["createChannel"] = (channel) =>
    transaction(
      Effect.gen(function* () {
        if (!(yield* lockGuild(channel.guildId))) return yield* noGuild
        const [count] = yield* countRows(
          sql`SELECT count(*)::integer AS n FROM guild_channels WHERE guild_id = ${channel.guildId}`
        )
        if ((count?.n ?? 0) >= Guild.MAX_CHANNELS) return yield* new GuildsErrors.ChannelLimitReached()
        yield* run(sql`INSERT INTO guild_channels ${sql.insert(channelRecord(channel))}`)
      })
    )

  const updateChannel: Service["updateChannel"] = (channelId, patch) => {
    const set = columnsOf(patch, channelColumns)
    const query =
      Object.keys(set).length === 0
        ? sql`SELECT * FROM guild_channels WHERE id = ${channelId}`
        : sql`UPDATE guild_channels SET ${sql.update(set)} WHERE id = ${channelId} RETURNING *`
    return Effect.map(channelRows(query), (rows) => Option.map(Option.fromNullishOr(rows[0]), toChannel))
  }

  // Under the guild row's lock, so no invite can be made for the channel meanwhile (createInvite
  // holds the same lock); the invites go first, explicitly, then what pointed at the channel.
  const deleteChannel: Service["deleteChannel"] = (channelId) =>
    transaction(
      Effect.gen(function* () {
        const [found] = yield* channelRows(sql`SELECT * FROM guild_channels WHERE id = ${channelId}`)
        if (found === undefined) return Option.none()
        const guildId = id(found.guild_id)
        yield* lockGuild(guildId)
        yield* run(sql`DELETE FROM guild_invites WHERE channel_id = ${channelId}`)
        const [deleted] = yield* channelRows(sql`DELETE FROM guild_channels WHERE id = ${channelId} RETURNING *`)
        if (deleted === undefined) return Option.none()
        yield* run(
          sql`UPDATE guild_channels SET parent_id = NULL WHERE guild_id = ${guildId} AND parent_id = ${channelId}`
        )
        yield* run(sql`
          UPDATE guilds SET
            system_channel_id = NULLIF(system_channel_id, ${channelId}::bigint),
            rules_channel_id = NULLIF(rules_channel_id, ${channelId}::bigint),
            public_updates_channel_id = NULLIF(public_updates_channel_id, ${channelId}::bigint),
            afk_channel_id = NULLIF(afk_channel_id, ${channelId}::bigint)
          WHERE id = ${guildId}
            AND ${channelId}::bigint IN (system_channel_id, rules_channel_id, public_updates_channel_id, afk_channel_id)`)
        return Option.some(toChannel(deleted))
      })
    )

  return {
    channels: (guildId) =>
      Effect.map(
        channelRows(sql`SELECT * FROM guild_channels WHERE guild_id = ${guildId} ORDER BY position, id`),
        (rows) => rows.map(toChannel)
      ),
    channel: (channelId) =>
      Effect.map(channelRows(sql`SELECT * FROM guild_channels WHERE id = ${channelId}`), (rows) =>
        Option.map(Option.fromNullishOr(rows[0]), toChannel)
      ),
    ...PgGuildChannelPlace.make(sql),
    createChannel,
    updateChannel,
    deleteChannel
  }
}
