/**
 * A host that cannot hand its WebSocket over (anything but Node's `ws` behind the HTTP route): the
 * gateway reads and writes through Effect's `Socket` with a fiber. Here the gateway's side is an
 * Effect client Socket dialled to a plain `ws` server, whose accepted socket plays the client.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Gateway } from "@veche/gateway"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import * as Socket from "effect/socket/Socket"
import { type WebSocket, WebSocketServer } from "ws"

interface Peer {
  readonly next: () => Promise<{ readonly op: number; readonly d: unknown }>
  readonly closed: Promise<number>
  readonly send: (frame: unknown) => void
}

/** A `ws` server on a free port and its first accepted socket, as the gateway's client. */
const peerServer = () => {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 })
  const accepted = new Promise<Peer>((resolve) =>
    server.once("connection", (socket: WebSocket) => {
      const frames: Array<{ op: number; d: unknown }> = []
      const waiting: Array<(frame: { op: number; d: unknown }) => void> = []
      socket.on("message", (data) => {
        const frame = JSON.parse(String(data)) as { op: number; d: unknown }
        const waiter = waiting.shift()
        if (waiter !== undefined) waiter(frame)
        else frames.push(frame)
      })
      resolve({
        next: () => {
          const frame = frames.shift()
          return frame !== undefined ? Promise.resolve(frame) : new Promise((wake) => waiting.push(wake))
        },
        closed: new Promise((done) => socket.once("close", (code) => done(code))),
        send: (frame) => socket.send(JSON.stringify(frame))
      })
    })
  )
  const listening = new Promise<number>((resolve) =>
    server.once("listening", () => {
      const address = server.address()
      resolve(typeof address === "object" && address !== null ? address.port : 0)
    })
  )
  return { server, accepted, listening }
}

describe("the gateway over Effect's Socket (no handover)", () => {
  layer(TestHost.layer(), { timeout: "30 seconds" })((it) => {
    it.effect("says HELLO, acknowledges a heartbeat, and closes a bad IDENTIFY with 4004", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const { server, accepted, listening } = peerServer()
        const port = yield* Effect.promise(() => listening)
        const socket = yield* Socket.makeWebSocket(`ws://127.0.0.1:${port}`).pipe(
          Effect.provide(Socket.layerWebSocketConstructorGlobal)
        )
        yield* host.run(
          Effect.flatMap(Effect.service(Gateway.Gateway), (gateway) =>
            gateway.connect(socket, { version: "10", encoding: "json" })
          )
        )
        const peer = yield* Effect.promise(() => accepted)
        expect(yield* Effect.promise(() => peer.next())).toMatchObject({ op: 10 })
        peer.send({ op: 1, d: null })
        expect(yield* Effect.promise(() => peer.next())).toMatchObject({ op: 11 })
        peer.send({ op: 2, d: { token: "not-a-token", properties: {} } })
        expect(yield* Effect.promise(() => peer.closed)).toBe(4004)
        yield* Effect.promise(() => new Promise((resolve) => server.close(resolve)))
      })
    )
  })
})
