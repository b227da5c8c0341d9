/**
 * The port to the messages table, and its in-memory adapter. History pages are cut by snowflake
 * (ids grow with time), newest first; the pin cap and slow mode are settled by the adapter in one
 * step each, so two concurrent pins at 49 or two messages inside one slow-mode window cannot both pass.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { Cursor, Edit, Message } from "./Message.ts"

export type PinResult = "pinned" | "already" | "full" | "missing"

export class MessagesRepo extends Context.Service<
  MessagesRepo,
  {
    readonly insert: (message: Message) => Effect.Effect<void>
    readonly find: (channelId: Snowflake.Snowflake, id: Snowflake.Snowflake) => Effect.Effect<Option.Option<Message>>
    /** Those of the ids that are messages of the channel, in no particular order (the replies of a page). */
    readonly findMany: (
      channelId: Snowflake.Snowflake,
      ids: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyArray<Message>>
    /**
     * A page of the channel's history, newest first: before or after a message (exclusive), around
     * one (it and up to half the limit on each side), or the newest.
     */
    readonly page: (
      channelId: Snowflake.Snowflake,
      cursor: Cursor,
      limit: number
    ) => Effect.Effect<ReadonlyArray<Message>>
    /** The message as it now is; none if it is not in the channel. */
    readonly update: (
      channelId: Snowflake.Snowflake,
      id: Snowflake.Snowflake,
      edit: Edit
    ) => Effect.Effect<Option.Option<Message>>
    /** Deletes it; the message as it was, none if it was not there. */
    readonly remove: (channelId: Snowflake.Snowflake, id: Snowflake.Snowflake) => Effect.Effect<Option.Option<Message>>
    /** The channel's pinned messages, the latest pinned first. */
    readonly pinned: (channelId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Message>>
    /** Pins it at `at` unless the channel already has `max` pins. */
    readonly pin: (
      channelId: Snowflake.Snowflake,
      id: Snowflake.Snowflake,
      at: DateTime.Utc,
      max: number
    ) => Effect.Effect<PinResult>
    /** Unpins it; false when it was not pinned (or is not there). */
    readonly unpin: (channelId: Snowflake.Snowflake, id: Snowflake.Snowflake) => Effect.Effect<boolean>
    /**
     * Slow mode: records that the user posts in the channel at `now` unless they did within
     * `seconds`; none when they may, else how long until they may (milliseconds).
     */
    readonly claimSlowmode: (
      channelId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      now: DateTime.Utc,
      seconds: number
    ) => Effect.Effect<Option.Option<number>>
    /** A user's messages, oldest first (the data export). */
    readonly byAuthor: (authorId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Message>>
    /** Deletes every message of the user (erasure); how many went. */
    readonly removeByAuthor: (authorId: Snowflake.Snowflake) => Effect.Effect<number>
    /**
     * Deletes up to `limit` messages of a channel (and, once none are left, its slow-mode marks);
     * how many messages went. The channel is gone: its owner calls this until it answers 0.
     */
    readonly removeByChannel: (channelId: Snowflake.Snowflake, limit: number) => Effect.Effect<number>
  }
>()("@veche/messages/MessagesRepo") {
  static readonly layerMemory: Layer.Layer<MessagesRepo> = Layer.effect(
    MessagesRepo,
    Effect.gen(function* () {
      const byId = yield* Ref.make<ReadonlyMap<string, Message>>(new Map())
      const slowmode = yield* Ref.make<ReadonlyMap<string, number>>(new Map())
      const newestFirst = (a: Message, b: Message) => (BigInt(a.id) > BigInt(b.id) ? -1 : 1)
      const inChannel = (all: ReadonlyMap<string, Message>, channelId: string) =>
        [...all.values()].filter((message) => message.channelId === channelId)
      const change = (channelId: string, id: string, f: (message: Message) => Message) =>
        Ref.modify(byId, (all): [Option.Option<Message>, ReadonlyMap<string, Message>] => {
          const found = all.get(id)
          if (found === undefined || found.channelId !== channelId) return [Option.none(), all]
          const next = f(found)
          return [Option.some(next), new Map(all).set(id, next)]
        })

      return MessagesRepo.of({
        insert: (message) => Ref.update(byId, (all) => new Map(all).set(message.id, message)),
        find: (channelId, id) =>
          Effect.map(Ref.get(byId), (all) =>
            Option.filter(Option.fromNullishOr(all.get(id)), (message) => message.channelId === channelId)
          ),
        findMany: (channelId, ids) =>
          Effect.map(Ref.get(byId), (all) =>
            ids.flatMap((id) => {
              const found = all.get(id)
              return found === undefined || found.channelId !== channelId ? [] : [found]
            })
          ),
        page: (channelId, cursor, limit) =>
          Effect.map(Ref.get(byId), (all) => {
            const messages = inChannel(all, channelId).sort(newestFirst)
            const id = (message: Message) => BigInt(message.id)
            if ("before" in cursor) return messages.filter((m) => id(m) < BigInt(cursor.before)).slice(0, limit)
            if ("after" in cursor) {
              // The `limit` oldest after the cursor, shown newest first.
              const after = messages.filter((m) => id(m) > BigInt(cursor.after))
              return after.slice(Math.max(0, after.length - limit))
            }
            if ("around" in cursor) {
              const at = BigInt(cursor.around)
              const half = Math.floor(limit / 2)
              const newer = messages.filter((m) => id(m) > at)
              const older = messages.filter((m) => id(m) <= at)
              return [...newer.slice(Math.max(0, newer.length - half)), ...older.slice(0, limit - half)]
            }
            return messages.slice(0, limit)
          }),
        update: (channelId, id, edit) =>
          change(channelId, id, (message) => ({
            ...message,
            content: edit.content,
            embeds: [...edit.embeds],
            mentionUserIds: [...edit.mentionUserIds],
            mentionRoleIds: [...edit.mentionRoleIds],
            mentionEveryone: edit.mentionEveryone,
            editedAt: edit.editedAt
          })),
        remove: (channelId, id) =>
          Ref.modify(byId, (all): [Option.Option<Message>, ReadonlyMap<string, Message>] => {
            const found = all.get(id)
            if (found === undefined || found.channelId !== channelId) return [Option.none(), all]
            const next = new Map(all)
            next.delete(id)
            return [Option.some(found), next]
          }),
        pinned: (channelId) =>
          Effect.map(Ref.get(byId), (all) =>
            inChannel(all, channelId)
              .filter((message) => message.pinnedAt !== null)
              .sort((a, b) => {
                const byTime =
                  DateTime.toEpochMillis(b.pinnedAt ?? b.createdAt) - DateTime.toEpochMillis(a.pinnedAt ?? a.createdAt)
                return byTime !== 0 ? byTime : newestFirst(a, b)
              })
          ),
        pin: (channelId, id, at, max) =>
          Ref.modify(byId, (all): [PinResult, ReadonlyMap<string, Message>] => {
            const found = all.get(id)
            if (found === undefined || found.channelId !== channelId) return ["missing", all]
            if (found.pinnedAt !== null) return ["already", all]
            if (inChannel(all, channelId).filter((message) => message.pinnedAt !== null).length >= max)
              return ["full", all]
            return ["pinned", new Map(all).set(id, { ...found, pinnedAt: at })]
          }),
        unpin: (channelId, id) =>
          Ref.modify(byId, (all): [boolean, ReadonlyMap<string, Message>] => {
            const found = all.get(id)
            if (found === undefined || found.channelId !== channelId || found.pinnedAt === null) return [false, all]
            return [true, new Map(all).set(id, { ...found, pinnedAt: null })]
          }),
        claimSlowmode: (channelId, userId, now, seconds) =>
          Ref.modify(slowmode, (last): [Option.Option<number>, ReadonlyMap<string, number>] => {
            const key = `${channelId}:${userId}`
            const nowMs = DateTime.toEpochMillis(now)
            const until = (last.get(key) ?? Number.NEGATIVE_INFINITY) + seconds * 1000
            if (until > nowMs) return [Option.some(until - nowMs), last]
            return [Option.none(), new Map(last).set(key, nowMs)]
          }),
        byAuthor: (authorId) =>
          Effect.map(Ref.get(byId), (all) =>
            [...all.values()].filter((message) => message.authorId === authorId).sort((a, b) => newestFirst(b, a))
          ),
        removeByAuthor: (authorId) =>
          Ref.modify(byId, (all): [number, ReadonlyMap<string, Message>] => {
            const next = new Map([...all].filter(([, message]) => message.authorId !== authorId))
            return [all.size - next.size, next]
          }),
        removeByChannel: (channelId, limit) =>
          Effect.flatMap(
            Ref.modify(byId, (all): [number, ReadonlyMap<string, Message>] => {
              const doomed = [...all.values()].filter((message) => message.channelId === channelId).slice(0, limit)
              if (doomed.length === 0) return [0, all]
              const next = new Map(all)
              for (const message of doomed) next.delete(message.id)
              return [doomed.length, next]
            }),
            (removed) =>
              removed > 0
                ? Effect.succeed(removed)
                : Effect.as(
                    Ref.update(
                      slowmode,
                      (last) => new Map([...last].filter(([key]) => !key.startsWith(`${channelId}:`)))
                    ),
                    0
                  )
          )
      })
    })
  )
}
