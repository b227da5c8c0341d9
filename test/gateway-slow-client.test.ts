/**
 * A client that stops reading does not make the server buffer without bound: once more than
 * `maxBufferedBytes` wait on its connection it is closed with 4000 (as the platform's "reconnect"),
 * nothing more is written to it, and its session stays resumable with what it missed. The client's
 * TCP socket is paused so the kernel's buffers fill, then Node's.
 */
import type { Socket } from "node:net"
import { describe, expect, layer } from "@effect/vitest"
import { type Dispatch, EventBus } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { register } from "./support/Accounts.ts"
import * as GatewayServer from "./support/GatewayServer.ts"

const promise = <A>(f: () => Promise<A>) => Effect.promise(f)

describe("a slow gateway client", () => {
  layer(GatewayServer.layer({ gateway: { maxBufferedBytes: 256 * 1024 } }), { timeout: "60 seconds" })((it) => {
    it.effect("is closed with 4000 past the buffer limit, and resumes what it missed", () =>
      Effect.gen(function* () {
        const user = yield* register("+79050019301", "gw_slow")
        const listening = yield* GatewayServer.Listening
        const host = yield* TestHost.TestHost
        const client = yield* promise(() =>
          GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`)
        )
        client.send({ op: 2, d: { token: user.access_token, properties: { os: "l", browser: "t", device: "t" } } })
        const ready = yield* promise(() => client.nextDispatch("READY"))
        const sessionId = (ready.d as { session_id: string }).session_id

        // stop reading, then 400 dispatches of 64 KiB (25 MiB) to the user
        const tcp = (client.socket as unknown as { _socket: Socket })._socket
        tcp.pause()
        const big = "x".repeat(64 * 1024)
        yield* host.run(
          Effect.flatMap(Effect.service(EventBus.EventBus), (bus) =>
            Effect.forEach(
              Array.from({ length: 400 }, (_, i) => i),
              (i) =>
                bus.publish({
                  type: "USER_SETTINGS_UPDATE",
                  userIds: [user.user_id],
                  data: { status: "online", custom_status: null, theme: `${i}:${big}`, locale: "ru" }
                } as unknown as Dispatch.Dispatch),
              { discard: true }
            )
          )
        )
        yield* promise(() => new Promise((resolve) => setTimeout(resolve, 1000)))
        tcp.resume()
        const closed = yield* promise(() => client.closed)
        expect(closed.code).toBe(4000)
        const seen = client.frames.filter((f) => f.op === 0)
        const lastSeq = Math.max(...seen.map((f) => f.s ?? 0))
        // far fewer than 400 got through before the close
        expect(seen.length).toBeLessThan(400)

        // the session resumes from there and gets the rest
        const again = yield* promise(() =>
          GatewayServer.RawClient.connect(`${listening.gatewayUrl}?v=10&encoding=json`)
        )
        yield* promise(() => again.next())
        again.send({ op: 6, d: { token: user.access_token, session_id: sessionId, seq: lastSeq } })
        const replayed: Array<number> = []
        for (;;) {
          const frame = yield* promise(() => again.next())
          if (frame.t === "RESUMED") break
          if (frame.t === "USER_SETTINGS_UPDATE") replayed.push(frame.s ?? 0)
        }
        expect(replayed[0]).toBe(lastSeq + 1)
        expect(replayed.at(-1)).toBe(401)
        yield* promise(() => again.close())
      })
    )
  })
})
