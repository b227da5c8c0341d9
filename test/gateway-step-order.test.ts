/**
 * A connection's steps take turns: the heartbeat sweep's 4009 waits for an IDENTIFY suspended on the
 * guild list instead of ending the connection under it (which left a session, and the user online,
 * for a socket that was gone). The guild list read is held on a gate the test opens.
 */
import { describe, expect, layer } from "@effect/vitest"
import { PresenceStore } from "@veche/gateway"
import { GuildsRepo } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect, Layer } from "effect"
import { register } from "./support/Accounts.ts"
import * as GatewayServer from "./support/GatewayServer.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

/** While set, reading this user's guilds waits until `release` resolves (after calling `entered`). */
let gate: { userId: string; entered: () => void; release: Promise<void> } | undefined

const memory = TestHost.layerMemoryRepositories
/** The memory repositories, with the guild list read through the gate. */
const gatedRepositories = Layer.effect(
  GuildsRepo.GuildsRepo,
  Effect.gen(function* () {
    const inner = yield* GuildsRepo.GuildsRepo
    return GuildsRepo.GuildsRepo.of({
      ...inner,
      guildsOf: (userId) =>
        Effect.suspend(() => {
          const held = gate
          if (held === undefined || userId !== held.userId) return inner.guildsOf(userId)
          gate = undefined
          held.entered()
          return Effect.andThen(
            Effect.promise(() => held.release),
            inner.guildsOf(userId)
          )
        })
    })
  })
).pipe(Layer.provideMerge(memory))

const hold = (userId: string) => {
  let entered = () => {}
  let release = () => {}
  const reached = new Promise<void>((resolve) => {
    entered = resolve
  })
  gate = {
    userId,
    entered: () => entered(),
    release: new Promise<void>((resolve) => {
      release = resolve
    })
  }
  return {
    reached,
    open: () => {
      release()
    }
  }
}

describe("a gateway connection's steps", () => {
  layer(GatewayServer.layer({ repositories: gatedRepositories, presenceGraceMs: 1000 }), {
    timeout: "60 seconds"
  })((it) => {
    it.effect("a missed heartbeat during a slow IDENTIFY closes after it, and leaves no session online", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const listening = yield* GatewayServer.Listening
        const user = yield* register("+79050019401", "gw_order")
        const client = yield* promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10`))
        expect(yield* promise(() => client.next())).toMatchObject({ op: 10 })
        const held = hold(user.user_id)
        client.send({ op: 2, d: { token: user.access_token, properties: { os: "l", browser: "t", device: "t" } } })
        yield* promise(() => held.reached)
        // past the deadline and its grace while IDENTIFY waits: the 4009 waits its turn
        yield* host.adjustClock("62 seconds")
        yield* host.adjustClock("21 seconds")
        expect(yield* promise(() => client.unread(300))).toEqual([])
        held.open()
        yield* promise(() => client.nextDispatch("READY"))
        // then the overdue heartbeat is asked for, and the connection closes as its deadline says
        expect(yield* promise(() => client.next())).toMatchObject({ op: 1 })
        yield* host.adjustClock("21 seconds")
        expect((yield* promise(() => client.closed)).code).toBe(4009)
        // its session was let go with the socket: offline after the grace
        yield* host.adjustClock("5 seconds")
        yield* promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
        const present = yield* host.run(
          Effect.gen(function* () {
            const store = yield* PresenceStore.PresenceStore
            return yield* store.get([Snowflake.Snowflake.make(user.user_id)])
          })
        )
        expect(present.size).toBe(0)
      })
    )
  })
})
