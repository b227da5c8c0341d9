/**
 * MessagesRepo on PostgreSQL (`messages` and `message_slowmode`, migration 0023). Pages are cut by
 * id on the `(channel_id, id DESC)` index. The pin cap is settled in one transaction under a lock on
 * the channel (an advisory lock in its own namespace), so two pins at 49 cannot both pass; slow mode
 * by one conditional upsert (the row changes only when the previous post is old enough).
 */
import { type Message, MessageSchemas, MessagesRepo } from "@veche/messages"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as DecodedRows from "./internal/DecodedRows.ts"
import { idArray } from "./internal/IdArray.ts"

const Row = Schema.Struct({
  id: Schema.BigInt,
  channel_id: Schema.BigInt,
  guild_id: Schema.BigInt,
  author_id: Schema.BigInt,
  author_bot: Schema.Boolean,
  content: Schema.String,
  embeds: Schema.Array(MessageSchemas.Embed),
  mention_user_ids: Schema.Array(Snowflake.Snowflake),
  mention_role_ids: Schema.Array(Snowflake.Snowflake),
  mention_everyone: Schema.Boolean,
  nonce: Schema.NullOr(MessageSchemas.Nonce),
  tts: Schema.Boolean,
  type: Schema.Literals([0, 19]),
  referenced_message_id: Schema.NullOr(Schema.BigInt),
  pinned_at: Schema.NullOr(Schema.Date),
  edited_at: Schema.NullOr(Schema.Date),
  created_at: Schema.Date
})

const id = (value: bigint) => Snowflake.Snowflake.make(String(value))
const time = (value: Date | null) => (value === null ? null : DateTime.fromDateUnsafe(value))

const toMessage = (row: typeof Row.Type): Message.Message => ({
  id: id(row.id),
  channelId: id(row.channel_id),
  guildId: id(row.guild_id),
  authorId: id(row.author_id),
  authorBot: row.author_bot,
  content: row.content,
  embeds: row.embeds,
  mentionUserIds: row.mention_user_ids,
  mentionRoleIds: row.mention_role_ids,
  mentionEveryone: row.mention_everyone,
  nonce: row.nonce,
  tts: row.tts,
  type: row.type,
  referencedMessageId: row.referenced_message_id === null ? null : id(row.referenced_message_id),
  pinnedAt: time(row.pinned_at),
  editedAt: time(row.edited_at),
  createdAt: DateTime.fromDateUnsafe(row.created_at)
})

const COLUMNS =
  "id, channel_id, guild_id, author_id, author_bot, content, embeds, mention_user_ids, mention_role_ids, mention_everyone, nonce, tts, type, referenced_message_id, pinned_at, edited_at, created_at"

export const layer: Layer.Layer<MessagesRepo.MessagesRepo, never, SqlClient.SqlClient> = Layer.effect(
  MessagesRepo.MessagesRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(COLUMNS)
    const { many, one } = DecodedRows.of(Row, toMessage)

    const page = (channelId: Snowflake.Snowflake, cursor: Message.Cursor, limit: number) => {
      if ("before" in cursor)
        return many(sql`SELECT ${columns} FROM messages WHERE channel_id = ${channelId} AND id < ${cursor.before}
                        ORDER BY id DESC LIMIT ${limit}`)
      if ("after" in cursor)
        // the `limit` oldest after the cursor, shown newest first
        return many(sql`SELECT ${columns} FROM (
                          SELECT ${columns} FROM messages WHERE channel_id = ${channelId} AND id > ${cursor.after}
                          ORDER BY id ASC LIMIT ${limit}) AS page
                        ORDER BY id DESC`)
      if ("around" in cursor) {
        const half = Math.floor(limit / 2)
        return many(sql`SELECT ${columns} FROM (
                          (SELECT ${columns} FROM messages WHERE channel_id = ${channelId} AND id > ${cursor.around}
                           ORDER BY id ASC LIMIT ${half})
                          UNION ALL
                          (SELECT ${columns} FROM messages WHERE channel_id = ${channelId} AND id <= ${cursor.around}
                           ORDER BY id DESC LIMIT ${limit - half})) AS page
                        ORDER BY id DESC`)
      }
      return many(sql`SELECT ${columns} FROM messages WHERE channel_id = ${channelId} ORDER BY id DESC LIMIT ${limit}`)
    }

    const pin = (channelId: Snowflake.Snowflake, messageId: Snowflake.Snowflake, at: DateTime.Utc, max: number) =>
      sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`message-pins:${channelId}`}, 0))`
            const [found] = yield* sql<{ readonly pinned: boolean }>`
              SELECT pinned_at IS NOT NULL AS pinned FROM messages
              WHERE id = ${messageId} AND channel_id = ${channelId} FOR UPDATE`
            if (found === undefined) return "missing" as const
            if (found.pinned) return "already" as const
            const [counted] = yield* sql<{ readonly n: number }>`
              SELECT count(*)::int AS n FROM messages WHERE channel_id = ${channelId} AND pinned_at IS NOT NULL`
            if ((counted?.n ?? 0) >= max) return "full" as const
            yield* sql`UPDATE messages SET pinned_at = ${DateTime.toDateUtc(at)} WHERE id = ${messageId}`
            return "pinned" as const
          })
        )
        .pipe(Effect.orDie)

    const claimSlowmode = (
      channelId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      now: DateTime.Utc,
      seconds: number
    ) =>
      Effect.gen(function* () {
        const nowMs = DateTime.toEpochMillis(now)
        const claimed = yield* sql`
          INSERT INTO message_slowmode (channel_id, user_id, posted_at)
          VALUES (${channelId}, ${userId}, ${new Date(nowMs)})
          ON CONFLICT (channel_id, user_id) DO UPDATE SET posted_at = excluded.posted_at
          WHERE message_slowmode.posted_at <= ${new Date(nowMs - seconds * 1000)}
          RETURNING user_id`
        if (claimed.length > 0) return Option.none()
        const [last] = yield* sql<{ readonly posted_at: Date }>`
          SELECT posted_at FROM message_slowmode WHERE channel_id = ${channelId} AND user_id = ${userId}`
        const until = (last?.posted_at.getTime() ?? nowMs) + seconds * 1000
        return Option.some(Math.max(1, until - nowMs))
      }).pipe(Effect.orDie)

    return MessagesRepo.MessagesRepo.of({
      insert: (message) =>
        sql`INSERT INTO messages ${sql.insert({
          id: message.id,
          channel_id: message.channelId,
          guild_id: message.guildId,
          author_id: message.authorId,
          author_bot: message.authorBot,
          content: message.content,
          embeds: JSON.stringify(message.embeds),
          mention_user_ids: JSON.stringify(message.mentionUserIds),
          mention_role_ids: JSON.stringify(message.mentionRoleIds),
          mention_everyone: message.mentionEveryone,
          nonce: message.nonce === null ? null : JSON.stringify(message.nonce),
          tts: message.tts,
          type: message.type,
          referenced_message_id: message.referencedMessageId,
          pinned_at: message.pinnedAt === null ? null : DateTime.toDateUtc(message.pinnedAt),
          edited_at: message.editedAt === null ? null : DateTime.toDateUtc(message.editedAt),
          created_at: DateTime.toDateUtc(message.createdAt)
        })}`.pipe(Effect.asVoid, Effect.orDie),
      find: (channelId, messageId) =>
        one(sql`SELECT ${columns} FROM messages WHERE id = ${messageId} AND channel_id = ${channelId}`),
      findMany: (channelId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : many(sql`SELECT ${columns} FROM messages
                     WHERE channel_id = ${channelId} AND id = ANY(${idArray(ids)}::bigint[])`),
      page,
      update: (channelId, messageId, edit) =>
        one(sql`
          UPDATE messages SET
            content = ${edit.content},
            embeds = ${JSON.stringify(edit.embeds)}::jsonb,
            mention_user_ids = ${JSON.stringify(edit.mentionUserIds)}::jsonb,
            mention_role_ids = ${JSON.stringify(edit.mentionRoleIds)}::jsonb,
            mention_everyone = ${edit.mentionEveryone},
            edited_at = ${DateTime.toDateUtc(edit.editedAt)}
          WHERE id = ${messageId} AND channel_id = ${channelId} RETURNING ${columns}`),
      remove: (channelId, messageId) =>
        one(sql`DELETE FROM messages WHERE id = ${messageId} AND channel_id = ${channelId} RETURNING ${columns}`),
      pinned: (channelId) =>
        many(sql`SELECT ${columns} FROM messages WHERE channel_id = ${channelId} AND pinned_at IS NOT NULL
                 ORDER BY pinned_at DESC, id DESC`),
      pin,
      unpin: (channelId, messageId) =>
        sql`UPDATE messages SET pinned_at = NULL
            WHERE id = ${messageId} AND channel_id = ${channelId} AND pinned_at IS NOT NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      claimSlowmode,
      byAuthor: (authorId) => many(sql`SELECT ${columns} FROM messages WHERE author_id = ${authorId} ORDER BY id`),
      removeByAuthor: (authorId) =>
        sql`DELETE FROM messages WHERE author_id = ${authorId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),
      // a bounded batch through the (channel_id, id) index, so one channel's history never holds
      // one long transaction; the slow-mode marks go with the last batch
      removeByChannel: (channelId, limit) =>
        Effect.gen(function* () {
          const rows = yield* sql`
            DELETE FROM messages WHERE id IN (
              SELECT id FROM messages WHERE channel_id = ${channelId} ORDER BY id DESC LIMIT ${limit}
            ) RETURNING id`
          if (rows.length === 0) yield* sql`DELETE FROM message_slowmode WHERE channel_id = ${channelId}`
          return rows.length
        }).pipe(Effect.orDie)
    })
  })
)
