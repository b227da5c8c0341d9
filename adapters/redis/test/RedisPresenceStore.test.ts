/**
 * The PresenceStore contract on Redis, with two nodes (each its own connection) on keys no other
 * run shares. Runs when REDIS_URL is set (CI sets it).
 */
import { describe } from "@effect/vitest"
import { PresenceStore } from "@veche/gateway"
import { presenceStoreContract } from "@veche/gateway/test/PresenceStoreContract"
import { Context, Effect, Layer, Redacted } from "effect"
import * as RedisPresenceStore from "../src/RedisPresenceStore.ts"

const redisUrl = process.env.REDIS_URL
let run = 0

const node = (prefix: string) =>
  Effect.map(
    Layer.build(RedisPresenceStore.layer({ url: Redacted.make(redisUrl ?? ""), prefix })).pipe(Effect.orDie),
    (context) => Context.get(context, PresenceStore.PresenceStore)
  )

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RedisPresenceStore", () => {
  presenceStoreContract(() =>
    Effect.gen(function* () {
      const prefix = `veche:test:presence:${process.pid}:${Date.now()}:${++run}:`
      return [yield* node(prefix), yield* node(prefix)] as const
    })
  )
})
