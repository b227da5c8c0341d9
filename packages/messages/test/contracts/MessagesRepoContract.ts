/**
 * The one behaviour suite every MessagesRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set (adapters/postgres/test/PgMessagesRepo.test.ts). Each test
 * uses channels of its own (the suite shares one store).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option } from "effect"
import type { Message } from "../../src/Message.ts"
import { MessagesRepo } from "../../src/MessagesRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(21))
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1, 12))
const guildId = Snowflake.Snowflake.make("1311000000000000500")
const author = Snowflake.Snowflake.make("1311000000000000501")

const message = (channelId: Snowflake.Snowflake, overrides: Partial<Message> = {}) =>
  Effect.map(
    ids.next,
    (id): Message => ({
      id,
      channelId,
      guildId,
      authorId: author,
      authorBot: false,
      content: `hello ${id}`,
      embeds: [],
      mentionUserIds: [],
      mentionRoleIds: [],
      mentionEveryone: false,
      nonce: null,
      tts: false,
      type: 0,
      referencedMessageId: null,
      pinnedAt: null,
      editedAt: null,
      createdAt: T0,
      ...overrides
    })
  )

/** Ten messages in a fresh channel, oldest first. */
const channelOfTen = Effect.gen(function* () {
  const repo = yield* MessagesRepo
  const channelId = yield* ids.next
  const written: Array<Message> = []
  for (let i = 0; i < 10; i++) {
    const m = yield* message(channelId)
    yield* repo.insert(m)
    written.push(m)
  }
  return { channelId, written }
})

const idsOf = (messages: ReadonlyArray<Message>) => messages.map((m) => m.id)

export const messagesRepoContract = (it: Vitest.MethodsNonLive<MessagesRepo>) => {
  it.effect("stores a message with everything it carries and reads it back in its channel only", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const channelId = yield* ids.next
      const m = yield* message(channelId, {
        content: 'with \u00e9mojis \u{1F600} and "quotes"',
        embeds: [{ title: "T", fields: [{ name: "a", value: "b", inline: true }], color: 0xff0000 }],
        mentionUserIds: [author],
        mentionRoleIds: [guildId],
        mentionEveryone: true,
        nonce: "n-1",
        tts: true,
        authorBot: true
      })
      yield* repo.insert(m)
      expect(yield* repo.find(channelId, m.id)).toEqual(Option.some(m))
      expect(yield* repo.find(yield* ids.next, m.id)).toEqual(Option.none())
      // several at once: only this channel's, unknown ids left out
      const unknown = yield* ids.next
      expect(yield* repo.findMany(channelId, [m.id, unknown])).toEqual([m])
      expect(yield* repo.findMany(yield* ids.next, [m.id])).toEqual([])
      expect(yield* repo.findMany(channelId, [])).toEqual([])
      const numeric = yield* message(channelId, { nonce: 12345, type: 19, referencedMessageId: m.id })
      yield* repo.insert(numeric)
      expect(yield* repo.find(channelId, numeric.id)).toEqual(Option.some(numeric))
    })
  )

  it.effect("pages newest first: the newest, before, after and around a message, by limit", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const { channelId, written } = yield* channelOfTen
      const newestFirst = [...written].reverse()
      expect(idsOf(yield* repo.page(channelId, {}, 3))).toEqual(idsOf(newestFirst.slice(0, 3)))
      expect(idsOf(yield* repo.page(channelId, {}, 100))).toEqual(idsOf(newestFirst))
      const at = written[5] as Message
      // before: older than it, newest of those first
      expect(idsOf(yield* repo.page(channelId, { before: at.id }, 3))).toEqual(
        idsOf([written[4], written[3], written[2]] as Array<Message>)
      )
      // after: the oldest newer than it, still shown newest first
      expect(idsOf(yield* repo.page(channelId, { after: at.id }, 2))).toEqual(
        idsOf([written[7], written[6]] as Array<Message>)
      )
      expect(idsOf(yield* repo.page(channelId, { after: at.id }, 100))).toEqual(idsOf(newestFirst.slice(0, 4)))
      // around: it and about half the limit on each side
      expect(idsOf(yield* repo.page(channelId, { around: at.id }, 4))).toEqual(
        idsOf([written[7], written[6], written[5], written[4]] as Array<Message>)
      )
      expect(idsOf(yield* repo.page(channelId, { around: (written[0] as Message).id }, 5))).toEqual(
        idsOf([written[2], written[1], written[0]] as Array<Message>)
      )
      // another channel's messages never show
      expect(yield* repo.page(yield* ids.next, {}, 50)).toEqual([])
    })
  )

  it.effect("updates content, embeds and mentions with the edit time; deletes answering what it was", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const channelId = yield* ids.next
      const m = yield* message(channelId)
      yield* repo.insert(m)
      const at = DateTime.add(T0, { minutes: 1 })
      const edited = yield* repo.update(channelId, m.id, {
        content: "new",
        embeds: [{ description: "d" }],
        mentionUserIds: [author],
        mentionRoleIds: [],
        mentionEveryone: false,
        editedAt: at
      })
      const expected = { ...m, content: "new", embeds: [{ description: "d" }], mentionUserIds: [author], editedAt: at }
      expect(edited).toEqual(Option.some(expected))
      expect(yield* repo.update(yield* ids.next, m.id, { ...expected, editedAt: at })).toEqual(Option.none())
      expect(yield* repo.remove(channelId, m.id)).toEqual(Option.some(expected))
      expect(yield* repo.remove(channelId, m.id)).toEqual(Option.none())
      expect(yield* repo.find(channelId, m.id)).toEqual(Option.none())
    })
  )

  it.effect("pins up to the cap (latest pinned first), once each; unpins; concurrent pins never pass the cap", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const { channelId, written } = yield* channelOfTen
      const [a, b, c] = written as [Message, Message, Message]
      expect(yield* repo.pin(channelId, a.id, T0, 3)).toBe("pinned")
      expect(yield* repo.pin(channelId, a.id, T0, 3)).toBe("already")
      expect(yield* repo.pin(channelId, b.id, DateTime.add(T0, { seconds: 1 }), 3)).toBe("pinned")
      expect(idsOf(yield* repo.pinned(channelId))).toEqual([b.id, a.id])
      expect(yield* repo.pin(channelId, yield* ids.next, T0, 3)).toBe("missing")
      expect(yield* repo.pin(yield* ids.next, c.id, T0, 3)).toBe("missing")
      expect(yield* repo.unpin(channelId, a.id)).toBe(true)
      expect(yield* repo.unpin(channelId, a.id)).toBe(false)
      expect(idsOf(yield* repo.pinned(channelId))).toEqual([b.id])
      // seven at once for the two places left under a cap of 3
      const results = yield* Effect.all(
        written.slice(2, 9).map((m) => repo.pin(channelId, m.id, T0, 3)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r === "pinned")).toHaveLength(2)
      expect(results.filter((r) => r === "full")).toHaveLength(5)
      expect(yield* repo.pinned(channelId)).toHaveLength(3)
      expect(Option.map(yield* repo.find(channelId, b.id), (m) => m.pinnedAt !== null)).toEqual(Option.some(true))
    })
  )

  it.effect("slow mode lets one post per window through, also when posts race", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const channelId = yield* ids.next
      const user = yield* ids.next
      expect(yield* repo.claimSlowmode(channelId, user, T0, 10)).toEqual(Option.none())
      expect(yield* repo.claimSlowmode(channelId, user, DateTime.add(T0, { seconds: 4 }), 10)).toEqual(
        Option.some(6000)
      )
      // another member, another channel: their own windows
      expect(yield* repo.claimSlowmode(channelId, yield* ids.next, T0, 10)).toEqual(Option.none())
      expect(yield* repo.claimSlowmode(yield* ids.next, user, T0, 10)).toEqual(Option.none())
      const later = DateTime.add(T0, { seconds: 10 })
      const raced = yield* Effect.all(
        Array.from({ length: 6 }, () => repo.claimSlowmode(channelId, user, later, 10)),
        { concurrency: "unbounded" }
      )
      expect(raced.filter(Option.isNone)).toHaveLength(1)
    })
  )

  it.effect("lists and removes one author's messages across channels (export, erasure)", () =>
    Effect.gen(function* () {
      const repo = yield* MessagesRepo
      const writer = yield* ids.next
      const first = yield* message(yield* ids.next, { authorId: writer })
      const second = yield* message(yield* ids.next, { authorId: writer })
      const other = yield* message(first.channelId)
      for (const m of [first, second, other]) yield* repo.insert(m)
      expect(idsOf(yield* repo.byAuthor(writer))).toEqual([first.id, second.id])
      expect(yield* repo.removeByAuthor(writer)).toBe(2)
      expect(yield* repo.removeByAuthor(writer)).toBe(0)
      expect(yield* repo.byAuthor(writer)).toEqual([])
      expect(Option.isSome(yield* repo.find(other.channelId, other.id))).toBe(true)
    })
  )

  it.effect(
    "removes a deleted channel's messages in batches, then its slow-mode marks; other channels keep theirs",
    () =>
      Effect.gen(function* () {
        const repo = yield* MessagesRepo
        const doomed = yield* ids.next
        const kept = yield* message(yield* ids.next)
        for (let i = 0; i < 5; i++) yield* repo.insert(yield* message(doomed))
        yield* repo.insert(kept)
        expect(Option.isNone(yield* repo.claimSlowmode(doomed, author, T0, 60))).toBe(true)
        expect(yield* repo.removeByChannel(doomed, 3)).toBe(3)
        expect(yield* repo.removeByChannel(doomed, 3)).toBe(2)
        // the slow-mode mark is still there until the channel has no message left
        expect(Option.isSome(yield* repo.claimSlowmode(doomed, author, T0, 60))).toBe(true)
        expect(yield* repo.removeByChannel(doomed, 3)).toBe(0)
        expect(Option.isNone(yield* repo.claimSlowmode(doomed, author, T0, 60))).toBe(true)
        expect(Option.isSome(yield* repo.find(kept.channelId, kept.id))).toBe(true)
      })
  )
}
