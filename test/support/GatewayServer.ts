/**
 * The test host behind a real listening socket on loopback, for what `fetch` cannot carry (the
 * gateway's WebSocket upgrade), and a small raw WebSocket client (`ws`) that records every frame.
 * The host keeps its test clock: heartbeat deadlines move with `host.adjustClock`.
 */
import { createServer } from "node:http"
import { createServer as createNetServer } from "node:net"
import { NodeHttpServer } from "@effect/platform-node"
import { Gateway } from "@veche/gateway"
import { TestHost } from "@veche/test-host"
import { Context, Effect, Layer } from "effect"
import { HttpServer } from "effect/http"
import WebSocket from "ws"

export class Listening extends Context.Service<Listening, { readonly base: string; readonly gatewayUrl: string }>()(
  "test/GatewayServer/Listening"
) {}

/** A port nobody listens on now (the server binds it right after: READY names it before it listens). */
const freePort = Effect.promise(
  () =>
    new Promise<number>((resolve) => {
      const probe = createNetServer()
      probe.listen(0, "127.0.0.1", () => {
        const address = probe.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        probe.close(() => resolve(port))
      })
    })
)

export const layer = (options: TestHost.Options = {}): Layer.Layer<TestHost.TestHost | Listening> =>
  Layer.unwrap(
    Effect.map(freePort, (port) => {
      const gatewayUrl = `ws://127.0.0.1:${port}/gateway`
      const host = TestHost.layer({ ...options, gatewayUrl })
      const listening = Layer.effect(
        Listening,
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          yield* HttpServer.serveEffect(testHost.app)
          // before the listener stops: op 7 and a close to every session, so it waits on no socket
          yield* Effect.addFinalizer(() =>
            testHost.run(Effect.flatMap(Effect.service(Gateway.Gateway), (gateway) => gateway.shutdown))
          )
          return Listening.of({ base: `http://127.0.0.1:${port}`, gatewayUrl })
        })
      ).pipe(Layer.provide(NodeHttpServer.layer(() => createServer(), { host: "127.0.0.1", port })))
      return listening.pipe(Layer.provideMerge(host))
    })
  ).pipe(Layer.orDie)

export interface Frame {
  readonly op: number
  readonly d: unknown
  readonly s: number | null
  readonly t: string | null
}

/** A raw client: every frame it received in order, awaited one at a time. */
export class RawClient {
  readonly frames: Array<Frame> = []
  /** The same frames as they arrived (text), to compare a payload byte for byte. */
  readonly texts: Array<string> = []
  private readonly waiting: Array<() => void> = []
  private read = 0
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>
  readonly opened: Promise<void>

  readonly socket: WebSocket

  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on("message", (data) => {
      this.texts.push(String(data))
      this.frames.push(JSON.parse(String(data)) as Frame)
      for (const wake of this.waiting.splice(0)) wake()
    })
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => {
        resolve({ code, reason: String(reason) })
        for (const wake of this.waiting.splice(0)) wake()
      })
    )
    this.opened = new Promise((resolve, reject) => {
      socket.once("open", () => resolve())
      socket.once("error", reject)
    })
  }

  static connect(url: string): Promise<RawClient> {
    const client = new RawClient(new WebSocket(url))
    return client.opened.then(() => client)
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === "string" ? frame : JSON.stringify(frame))
  }

  /** The next frame not yet read (waits up to 5 s). */
  async next(): Promise<Frame> {
    const deadline = Date.now() + 5000
    while (this.read >= this.frames.length) {
      if (this.socket.readyState === WebSocket.CLOSED) throw new Error("closed before the next frame")
      if (Date.now() > deadline) throw new Error("no frame within 5 s")
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve)
        setTimeout(resolve, 100)
      })
    }
    const frame = this.frames[this.read] as Frame
    this.read += 1
    return frame
  }

  /** The next dispatch named `t`, skipping others. */
  async nextDispatch(t: string): Promise<Frame> {
    for (;;) {
      const frame = await this.next()
      if (frame.op === 0 && frame.t === t) return frame
    }
  }

  /** Frames received and not read yet, after a short wait (to prove something did not arrive). */
  async unread(waitMs = 200): Promise<ReadonlyArray<Frame>> {
    await new Promise((resolve) => setTimeout(resolve, waitMs))
    const rest = this.frames.slice(this.read)
    this.read = this.frames.length
    return rest
  }

  close(code = 1000): Promise<{ readonly code: number; readonly reason: string }> {
    this.socket.close(code)
    return this.closed
  }
}
