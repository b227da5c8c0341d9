/** The fan-out alone, over the in-process bus: audiences, intents, guild topics, and a bad dispatch. */
import { describe, expect, it } from "@effect/vitest"
import { type Dispatch, EventBus, Snowflake } from "@veche/platform"
import { Effect, Layer } from "effect"
import { DispatchSource } from "../src/DispatchSource.ts"
import { GatewayConfig } from "../src/GatewayConfig.ts"
import * as Intents from "../src/Intents.ts"
import * as Session from "../src/Session.ts"
import { Sessions } from "../src/Sessions.ts"

const USER = Snowflake.Snowflake.make("175928847299117063")
const GUILD = Snowflake.Snowflake.make("197038439483310086")

const layer = Sessions.layer.pipe(
  Layer.provideMerge(DispatchSource.layerMemory),
  Layer.provideMerge(EventBus.EventBus.layerMemory),
  Layer.provide(GatewayConfig.layer({ resumeGatewayUrl: "ws://node/gateway" }))
)

const dispatch = (type: string, data: unknown, audience: Partial<Dispatch.Audience> = {}) =>
  ({ type, data, userIds: [], ...audience }) as unknown as Dispatch.Dispatch

const opened = (intents: number) =>
  Effect.gen(function* () {
    const sent: Array<{ t: string; s: number }> = []
    const session = Session.make({
      id: "s1",
      userId: USER,
      bot: true,
      intents,
      shard: [0, 1],
      largeThreshold: 50,
      replayLimit: 100,
      sink: { send: (text) => sent.push(JSON.parse(text) as { t: string; s: number }), close: () => {} }
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
