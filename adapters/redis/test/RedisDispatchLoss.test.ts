/**
 * A node whose Redis subscriber connection drops may have missed dispatches: its sessions get op 7
 * and a close (4000) and are forgotten (a RESUME then gets op 9, so the client identifies afresh)
 * instead of silently missing events; sessions opened after the reconnect receive dispatches again.
 * The subscriber is killed with CLIENT KILL, found by its name. Runs when REDIS_URL is set.
 */
import { describe, expect, it } from "@effect/vitest"
import { ChannelViews, GatewayConfig, Session, Sessions } from "@veche/gateway"
import { type Dispatch, EventBus, Snowflake } from "@veche/platform"
import { Effect, Layer, Option, Redacted } from "effect"
import { createClient } from "redis"
import * as RedisDispatchBus from "../src/RedisDispatchBus.ts"

const redisUrl = process.env.REDIS_URL

const user = Snowflake.Snowflake.make("175928847299117063")
const update = (theme: string): Dispatch.Dispatch =>
  ({
    type: "USER_SETTINGS_UPDATE",
    userIds: [user],
    data: { status: "online", custom_status: null, theme, locale: "ru" }
  }) as unknown as Dispatch.Dispatch

const opened = (id: string) => {
  const frames: Array<string> = []
  const closes: Array<number> = []
  const session = Session.make({
    id,
    userId: user,
    bot: false,
    intents: 0,
    readsContent: true,
    shard: [0, 1],
    largeThreshold: 50,
    replayLimit: 100,
    sink: { send: (text) => frames.push(text), close: (code) => closes.push(code) }
  })
  Session.started(session)
  return { session, frames, closes }
}

const waitUntil = (check: () => boolean) =>
  Effect.gen(function* () {
    for (let i = 0; i < 100 && !check(); i++) yield* Effect.sleep("50 millis")
    expect(check()).toBe(true)
  })

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RedisDispatchBus losing its subscription", () => {
  it.live("sends op 7 to this node's sessions and forgets them; later sessions receive again", () =>
    Effect.gen(function* () {
      const prefix = `veche:test:loss:${process.pid}:${Date.now()}:`
      const world = Sessions.Sessions.layer.pipe(
        Layer.provideMerge(RedisDispatchBus.layer({ url: Redacted.make(redisUrl ?? ""), prefix })),
        Layer.provide(GatewayConfig.GatewayConfig.layer({ resumeGatewayUrl: "ws://node/gateway" })),
        Layer.provide(ChannelViews.ChannelViews.layerEveryone)
      )
      yield* Effect.gen(function* () {
        const sessions = yield* Sessions.Sessions
        const bus = yield* EventBus.EventBus
        const first = opened("before")
        yield* sessions.open(first.session)
        yield* Effect.sleep("100 millis")
        yield* bus.publish(update("one"))
        yield* waitUntil(() => first.frames.some((text) => text.includes('"theme":"one"')))

        // kill this node's subscriber connection, found by its name
        const admin = yield* Effect.promise(() => createClient({ url: redisUrl ?? "" }).connect())
        const list = yield* Effect.promise(() => admin.sendCommand(["CLIENT", "LIST", "TYPE", "pubsub"]))
        const line = String(list)
          .split("\n")
          .find((entry) => entry.includes(`name=${prefix}sub`))
        const clientId = line?.match(/\bid=(\d+)/)?.[1]
        expect(clientId).toBeDefined()
        yield* Effect.promise(() => admin.sendCommand(["CLIENT", "KILL", "ID", clientId ?? ""]))

        yield* waitUntil(() => first.closes.includes(4000))
        expect(first.frames.map((text) => (JSON.parse(text) as { op: number }).op)).toContain(7)
        expect(Option.isNone(yield* sessions.find("before"))).toBe(true)

        // after node-redis reconnects, a new session is served again
        yield* Effect.sleep("500 millis")
        const second = opened("after")
        yield* sessions.open(second.session)
        yield* Effect.sleep("200 millis")
        yield* bus.publish(update("two"))
        yield* waitUntil(() => second.frames.some((text) => text.includes('"theme":"two"')))
        yield* Effect.promise(() => admin.close())
      }).pipe(Effect.provide(world), Effect.scoped)
    })
  )
})
