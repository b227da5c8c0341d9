/**
 * A user's identifies limited through a real socket (IdentifyLimits' user rule, here with a burst of
 * 2 per 5 s and 4 a day): past the burst op 9 `d: false` on the same connection, which may identify
 * again once the window passed; a RESUME counts for nothing; past the day a close with 4008. Run on
 * memory (test/gateway-identify-limits.test.ts, windows moved with the host's clock) and with the
 * limits in Redis (the same file when REDIS_URL is set, windows waited out in real time: Redis
 * expires keys on its own clock), and on PostgreSQL (adapters/postgres/test/GatewayIdentifyLimits.test.ts).
 */
import { describe, expect, layer } from "@effect/vitest"
import type { IdentifyLimits } from "@veche/gateway"
import type { TestHost } from "@veche/test-host"
import { Effect, type Layer } from "effect"
import { register } from "./Accounts.ts"
import * as GatewayServer from "./GatewayServer.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

const connect = Effect.flatMap(Effect.service(GatewayServer.Listening), (listening) =>
  Effect.promise(() => GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`))
)

const identify = (token: string) => ({
  op: 2,
  d: { token, properties: { os: "linux", browser: "test", device: "test" } }
})

export interface Options {
  readonly label: string
  /** Limits of burst 2 per 5 s and 4 a day. */
  readonly limits: () => Layer.Layer<IdentifyLimits.IdentifyLimits>
  /** Lets one 5-second window pass. */
  readonly nextWindow: Effect.Effect<void, never, TestHost.TestHost>
  readonly repositories?: (() => Layer.Layer<TestHost.Repositories>) | undefined
}

export const identifyLimitScenarios = (options: Options) =>
  describe(`a user's identify limits${options.label}`, () => {
    layer(GatewayServer.layer({ identifyLimits: options.limits(), repositories: options.repositories?.() }), {
      timeout: "60 seconds"
    })((it) => {
      it.effect("burst: op 9 then identify again later; a resume is free; the day spent: 4008", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050029001", "gwil_user")
          const other = yield* register("+79050029002", "gwil_other")
          const started = (client: GatewayServer.RawClient) =>
            Effect.gen(function* () {
              client.send(identify(user.access_token))
              return yield* promise(() => client.next())
            })

          // two at once pass (tabs opening together)
          const first = yield* connect
          yield* promise(() => first.next())
          const ready = yield* started(first)
          expect(ready).toMatchObject({ op: 0, t: "READY" })
          const sessionId = (ready.d as { session_id: string }).session_id
          const second = yield* connect
          yield* promise(() => second.next())
          expect(yield* started(second)).toMatchObject({ op: 0, t: "READY" })

          // the third within the window: op 9, the connection stays and may identify again
          const third = yield* connect
          yield* promise(() => third.next())
          expect(yield* started(third)).toMatchObject({ op: 9, d: false })
          third.send({ op: 1, d: null })
          expect(yield* promise(() => third.next())).toMatchObject({ op: 11 })
          // another user is not held back by it
          const stranger = yield* connect
          yield* promise(() => stranger.next())
          stranger.send(identify(other.access_token))
          expect(yield* promise(() => stranger.nextDispatch("READY"))).toMatchObject({ t: "READY" })

          yield* options.nextWindow
          expect(yield* started(third)).toMatchObject({ op: 0, t: "READY" })

          // a resume (the first session dropped without 1000) is not a start
          yield* promise(() => first.close(4000))
          const resumed = yield* connect
          yield* promise(() => resumed.next())
          resumed.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq: ready.s } })
          expect(yield* promise(() => resumed.nextDispatch("RESUMED"))).toMatchObject({ t: "RESUMED" })

          // the fourth of the day passes; the fifth, in a fresh window, is closed with 4008
          const fourth = yield* connect
          yield* promise(() => fourth.next())
          expect(yield* started(fourth)).toMatchObject({ op: 0, t: "READY" })
          yield* options.nextWindow
          const fifth = yield* connect
          yield* promise(() => fifth.next())
          fifth.send(identify(user.access_token))
          expect(yield* promise(() => fifth.closed)).toMatchObject({ code: 4008 })

          for (const client of [second, third, stranger, resumed, fourth]) yield* promise(() => client.close())
        })
      )

      it.effect("identifies racing within one window: exactly the burst passes, the others get op 9", () =>
        Effect.gen(function* () {
          const user = yield* register("+79050029011", "gwil_racer")
          const clients: Array<GatewayServer.RawClient> = []
          for (let i = 0; i < 6; i++) {
            const client = yield* connect
            yield* promise(() => client.next())
            clients.push(client)
          }
          // all sent before any answer is read
          for (const client of clients) client.send(identify(user.access_token))
          const answers = yield* Effect.all(
            clients.map((client) => promise(() => client.next())),
            { concurrency: "unbounded" }
          )
          const outcomes = answers.map((frame) => (frame.op === 0 ? frame.t : `op ${frame.op}`)).sort()
          expect(outcomes).toEqual(["READY", "READY", "op 9", "op 9", "op 9", "op 9"])
          for (const client of clients) yield* promise(() => client.close())
        })
      )
    })
  })
