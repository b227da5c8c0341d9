/** The fan-out alone, over the in-process bus: audiences, intents, guild topics, and a bad dispatch. */
import { describe, expect, it } from "@effect/vitest"
import { type Dispatch, EventBus, Snowflake } from "@veche/platform"
import { Effect, Layer } from "effect"
import { ChannelViews } from "../src/ChannelViews.ts"
import { DispatchSource } from "../src/DispatchSource.ts"
import { GatewayConfig } from "../src/GatewayConfig.ts"
import * as Intents from "../src/Intents.ts"
import * as MessageContent from "../src/MessageContent.ts"
import * as Session from "../src/Session.ts"
import { Sessions } from "../src/Sessions.ts"

const USER = Snowflake.Snowflake.make("175928847299117063")
const GUILD = Snowflake.Snowflake.make("197038439483310086")

const layer = Sessions.layer.pipe(
  Layer.provideMerge(DispatchSource.layerMemory),
  Layer.provideMerge(EventBus.EventBus.layerMemory),
  Layer.provide(GatewayConfig.layer({ resumeGatewayUrl: "ws://node/gateway" })),
  Layer.provide(ChannelViews.layerEveryone)
)

const dispatch = (type: string, data: unknown, audience: Partial<Dispatch.Audience> = {}) =>
  ({ type, data, userIds: [], ...audience }) as unknown as Dispatch.Dispatch

const opened = (intents: number, options: { readonly id?: string; readonly readsContent?: boolean } = {}) =>
  Effect.gen(function* () {
    const sent: Array<{ t: string; s: number; d: unknown }> = []
    const session = Session.make({
      id: options.id ?? "s1",
      userId: options.id === undefined ? USER : Snowflake.Snowflake.make(options.id),
      bot: true,
      intents,
      readsContent: options.readsContent ?? false,
      shard: [0, 1],
      largeThreshold: 50,
      replayLimit: 100,
      sink: { send: (text) => sent.push(JSON.parse(text) as { t: string; s: number; d: unknown }), close: () => {} }
    })
    Session.started(session)
    yield* (yield* Sessions).open(session)
    return { session, sent }
  })

describe("Sessions", () => {
  it.effect("delivers by user and by guild, filtered by intents; GUILD_CREATE/DELETE move the guild topic", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const { session, sent } = yield* opened(Intents.GUILDS)
      yield* sessions.deliver(dispatch("CHANNEL_CREATE", { id: "1" }, { guildIds: [GUILD] }))
      expect(sent).toEqual([]) // not in the guild yet
      yield* sessions.deliver(dispatch("GUILD_CREATE", { id: GUILD }, { userIds: [USER] }))
      expect(session.guildIds.has(GUILD)).toBe(true)
      yield* sessions.deliver(dispatch("CHANNEL_CREATE", { id: "1" }, { guildIds: [GUILD] }))
      // GUILD_MEMBERS not asked for
      yield* sessions.deliver(dispatch("GUILD_MEMBER_ADD", { guild_id: GUILD }, { guildIds: [GUILD] }))
      // one dispatch naming both the user and the guild arrives once
      yield* sessions.deliver(dispatch("GUILD_UPDATE", { id: GUILD }, { userIds: [USER], guildIds: [GUILD] }))
      yield* sessions.deliver(dispatch("GUILD_DELETE", { id: GUILD }, { userIds: [USER] }))
      yield* sessions.deliver(dispatch("CHANNEL_CREATE", { id: "2" }, { guildIds: [GUILD] }))
      expect(sent.map((f) => [f.t, f.s])).toEqual([
        ["GUILD_CREATE", 1],
        ["CHANNEL_CREATE", 2],
        ["GUILD_UPDATE", 3],
        ["GUILD_DELETE", 4]
      ])
    }).pipe(Effect.provide(layer))
  )

  it.effect("MESSAGE_CONTENT: bots without it get guild messages emptied, except their own, mentions and DMs", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const intents = Intents.GUILDS | Intents.GUILD_MESSAGES | Intents.DIRECT_MESSAGES
      const blind = yield* opened(intents, { id: "175928847299117100" })
      const reader = yield* opened(intents | Intents.MESSAGE_CONTENT, { id: "175928847299117101", readsContent: true })
      for (const { session } of [blind, reader])
        yield* sessions.deliver(dispatch("GUILD_CREATE", { id: GUILD }, { userIds: [session.userId] }))
      const message = (id: string, authorId: string, mentions: ReadonlyArray<string> = []) => ({
        id,
        guild_id: GUILD,
        author: { id: authorId },
        mentions: mentions.map((mentioned) => ({ id: mentioned })),
        content: "secret",
        embeds: [{ title: "t" }],
        attachments: [{ id: "9" }],
        components: [{ type: 1 }]
      })
      yield* sessions.deliver(dispatch("MESSAGE_CREATE", message("1", "42"), { guildIds: [GUILD] }))
      yield* sessions.deliver(dispatch("MESSAGE_UPDATE", message("1", "42"), { guildIds: [GUILD] }))
      yield* sessions.deliver(dispatch("MESSAGE_CREATE", message("2", blind.session.userId), { guildIds: [GUILD] }))
      yield* sessions.deliver(
        dispatch("MESSAGE_CREATE", message("3", "42", [blind.session.userId]), { guildIds: [GUILD] })
      )
      yield* sessions.deliver(dispatch("MESSAGE_CREATE", message("4", "42"), { userIds: [blind.session.userId] }))
      yield* sessions.deliver(dispatch("MESSAGE_DELETE", { id: "1", guild_id: GUILD }, { guildIds: [GUILD] }))
      const shown = (frames: ReadonlyArray<{ t: string; d: unknown }>) =>
        frames
          .filter((f) => f.t.startsWith("MESSAGE_"))
          .map((f) => {
            const d = f.d as { id: string; content?: string; embeds?: unknown[]; attachments?: unknown[] }
            return [f.t, d.id, d.content, d.embeds?.length, d.attachments?.length]
          })
      expect(shown(blind.sent)).toEqual([
        ["MESSAGE_CREATE", "1", "", 0, 0],
        ["MESSAGE_UPDATE", "1", "", 0, 0],
        ["MESSAGE_CREATE", "2", "secret", 1, 1], // its own
        ["MESSAGE_CREATE", "3", "secret", 1, 1], // mentions it
        ["MESSAGE_CREATE", "4", "secret", 1, 1], // a DM
        ["MESSAGE_DELETE", "1", undefined, undefined, undefined]
      ])
      expect(blind.sent[1]?.d).toMatchObject({ components: [], author: { id: "42" }, guild_id: GUILD })
      expect(shown(reader.sent)).toEqual([
        ["MESSAGE_CREATE", "1", "secret", 1, 1],
        ["MESSAGE_UPDATE", "1", "secret", 1, 1],
        ["MESSAGE_CREATE", "2", "secret", 1, 1],
        ["MESSAGE_CREATE", "3", "secret", 1, 1],
        ["MESSAGE_DELETE", "1", undefined, undefined, undefined]
      ])
    }).pipe(Effect.provide(layer))
  )

  it("MESSAGE_CONTENT is read by users, and by bots with the intent and either of its application flags", () => {
    const { GATEWAY_MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT_LIMITED } = Intents.ApplicationFlags
    expect(MessageContent.readsContent(false, Intents.GUILDS, 0)).toBe(true)
    expect(MessageContent.readsContent(true, Intents.MESSAGE_CONTENT, 0)).toBe(false)
    expect(MessageContent.readsContent(true, Intents.GUILDS, GATEWAY_MESSAGE_CONTENT)).toBe(false)
    expect(MessageContent.readsContent(true, Intents.MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT)).toBe(true)
    expect(MessageContent.readsContent(true, Intents.MESSAGE_CONTENT, GATEWAY_MESSAGE_CONTENT_LIMITED)).toBe(true)
  })

  it.live("keeps delivering after a dispatch that cannot be serialised", () =>
    Effect.gen(function* () {
      const bus = yield* EventBus.EventBus
      const { sent } = yield* opened(Intents.GUILDS)
      yield* Effect.sleep("20 millis")
      yield* bus.publish(dispatch("USER_UPDATE", { big: 1n }, { userIds: [USER] }))
      yield* bus.publish(dispatch("USER_UPDATE", { id: USER }, { userIds: [USER] }))
      yield* Effect.sleep("50 millis")
      expect(sent.map((f) => f.t)).toEqual(["USER_UPDATE"])
    }).pipe(Effect.provide(layer))
  )
})
