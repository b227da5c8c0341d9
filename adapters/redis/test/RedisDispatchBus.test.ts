/**
 * Dispatches between two nodes over Redis pub/sub: a node receives what another publishes for the
 * topics it subscribed to, once even when several of its topics name the dispatch, and nothing
 * after it unsubscribes. Runs when REDIS_URL is set (CI sets it).
 */
import { describe, expect, it } from "@effect/vitest"
import { DispatchSource } from "@veche/gateway"
import type { Dispatch } from "@veche/platform"
import { EventBus, Snowflake } from "@veche/platform"
import { Context, Effect, Fiber, Layer, Redacted, Stream } from "effect"
import * as RedisDispatchBus from "../src/RedisDispatchBus.ts"

const redisUrl = process.env.REDIS_URL
const options = () => ({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:${Date.now()}:` })

const node = (prefix: string) =>
  Layer.build(RedisDispatchBus.layer({ url: Redacted.make(redisUrl ?? ""), prefix })).pipe(
    Effect.map((context) => ({
      bus: Context.get(context, EventBus.EventBus),
      source: Context.get(context, DispatchSource.DispatchSource)
    }))
  )

const user = Snowflake.Snowflake.make("175928847299117063")
const guild = Snowflake.Snowflake.make("197038439483310086")
const update = (name: string): Dispatch.Dispatch =>
  ({
    type: "USER_SETTINGS_UPDATE",
    userIds: [user],
    guildIds: [guild],
    data: { status: "online", custom_status: null, theme: name, locale: "ru" }
  }) as unknown as Dispatch.Dispatch

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RedisDispatchBus", () => {
  it.live("delivers across nodes once per dispatch, and only while subscribed", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { prefix } = options()
        const a = yield* node(prefix)
        const b = yield* node(prefix)
        const got: Array<Dispatch.Dispatch> = []
        const collecting = yield* b.source.dispatches.pipe(
          Stream.runForEach((dispatch) => Effect.sync(() => got.push(dispatch))),
          Effect.forkScoped
        )
        yield* Effect.sleep("50 millis")
        yield* b.source.subscribe(DispatchSource.userTopic(user))
        yield* b.source.subscribe(DispatchSource.guildTopic(guild))
        yield* a.bus.publish(update("first"))
        yield* Effect.sleep("300 millis")
        expect(got).toHaveLength(1)
        expect(got[0]).toMatchObject({ type: "USER_SETTINGS_UPDATE", userIds: [user], guildIds: [guild] })
        expect((got[0] as unknown as { data: { theme: string } }).data.theme).toBe("first")

        yield* b.source.unsubscribe(DispatchSource.userTopic(user))
        yield* b.source.unsubscribe(DispatchSource.guildTopic(guild))
        yield* a.bus.publish(update("second"))
        yield* Effect.sleep("300 millis")
        expect(got).toHaveLength(1)
        yield* Fiber.interrupt(collecting)
      })
    )
  )

  it.effect("a wrong REDIS_URL fails the layer with DispatchBusUnavailable", () =>
    Effect.gen(function* () {
      const failed = yield* Effect.flip(
        Effect.scoped(Layer.build(RedisDispatchBus.layer({ url: Redacted.make("redis://127.0.0.1:1"), prefix: "x:" })))
      )
      expect(failed._tag).toBe("DispatchBusUnavailable")
    })
  )
})
