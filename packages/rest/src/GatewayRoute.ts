/**
 * The WebSocket gateway on the API's own HTTP server and port: `GET /gateway?v=10&encoding=json`
 * upgrades and hands the socket to `@veche/gateway`'s Gateway. A request that is not a WebSocket
 * upgrade (a plain GET, or a host that cannot upgrade, such as the in-memory test host's fetch)
 * answers 426 in the API's error shape.
 */
import { ErrorBody } from "@veche/errors"
import { Gateway } from "@veche/gateway"
import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"

export const PATH = "/gateway"

const paramsOf = (url: string): Gateway.Params => {
  const queryAt = url.indexOf("?")
  const query = new URLSearchParams(queryAt === -1 ? "" : url.slice(queryAt + 1))
  return { version: query.get("v") ?? undefined, encoding: query.get("encoding") ?? undefined }
}

/**
 * What the client has not yet taken off the connection: Node's request keeps the upgraded TCP
 * socket, to which the WebSocket writes its frames (`writableLength`: bytes queued in Node). Other
 * hosts: unknown (no bound).
 */
const bufferedAmountOf = (source: object): (() => number) | undefined => {
  const socket: unknown = Reflect.get(source, "socket")
  if (typeof socket !== "object" || socket === null || !("writableLength" in socket)) return undefined
  return () => {
    const length: unknown = Reflect.get(socket, "writableLength")
    return typeof length === "number" ? length : 0
  }
}

/** The part of a `ws` WebSocket the gateway uses once it takes the socket over. */
interface WsSocket {
  binaryType: string
  readonly readyState: number
  readonly send: (text: string) => void
  readonly close: (code: number, reason: string) => void
  readonly on: (event: string, listener: (...args: Array<never>) => void) => unknown
  readonly listeners: (event: string) => ReadonlyArray<object>
  readonly removeListener: (event: string, listener: never) => unknown
}

/**
 * Listeners added with `addEventListener` (the Socket's reader's): `ws` wraps each, the wrapper
 * marked with its own `Symbol("kListener")`. The server's own `on("close")` (client tracking, which
 * its close waits on) is not one of them.
 */
const addedAsEventListener = (listener: object) =>
  Object.getOwnPropertySymbols(listener).some((symbol) => symbol.description === "kListener")

const isWsSocket = (value: unknown): value is WsSocket =>
  typeof value === "object" &&
  value !== null &&
  ["send", "close", "on", "listeners", "removeListener"].every((name) => typeof Reflect.get(value, name) === "function")

/**
 * Node's upgraded connection handed to the gateway as it is: the `ws` WebSocket that took over the
 * TCP socket (`ws` marks the socket with it under its own, unexported `Symbol("websocket")`). The
 * Socket's reader stops listening (its event listeners removed: it would buffer frames nobody pulls), and
 * the gateway listens and sends itself, so an idle connection keeps no fiber and a fan-out write is
 * `ws.send`. Closing the Socket's scope later still closes the WebSocket (already closed by then).
 * Another host, or a `ws` that no longer marks the socket: undefined, and the gateway reads and
 * writes through the Socket.
 */
/** `WebSocket.CLOSED`. */
const CLOSED = 3

/**
 * `@effect/platform-node`'s upgrade handler leaves a `close` listener on the TCP socket that
 * interrupts the upgrade request's fiber if the socket closes before the response is written. After
 * a WebSocket upgrade that fiber is long over (interrupting it does nothing), but the listener keeps
 * it and the whole request (its context, Node's IncomingMessage and headers) for as long as the
 * connection lives. It is recognised by what it does (it is anonymous); Node's own listeners are
 * gone after an upgrade, and `ws`'s is named.
 */
const forgetUpgradeFiber = (socket: object) => {
  const listeners: unknown = Reflect.get(socket, "listeners")
  const on: unknown = Reflect.get(socket, "on")
  const removeListener: unknown = Reflect.get(socket, "removeListener")
  if (typeof listeners !== "function" || typeof on !== "function" || typeof removeListener !== "function") return
  const upgradeHandlers = (event: string, source: RegExp) => {
    const found: unknown = Reflect.apply(listeners, socket, [event])
    return Array.isArray(found)
      ? found.filter(
          (listener): listener is object =>
            typeof listener === "function" && listener.name === "" && source.test(String(listener))
        )
      : []
  }
  const closing = upgradeHandlers("close", /interruptUnsafe/)
  // its `error` no-op too: a closure of the same handler, so it keeps the same things alive
  const ignoring = upgradeHandlers("error", /^\(\)\s*=>\s*\{\s*\}$/)
  if (closing.length === 0) return
  Reflect.apply(on, socket, ["error", ignoreError])
  for (const listener of closing) Reflect.apply(removeListener, socket, ["close", listener])
  for (const listener of ignoring) Reflect.apply(removeListener, socket, ["error", listener])
}

/** The TCP socket's errors are `ws`'s to act on (it listens too); this only keeps them handled. */
const ignoreError = () => {}

const takeOverOf = (source: object): (() => Gateway.HostSocket | undefined) => {
  // only the TCP socket is kept, not the request (which the connection would otherwise keep alive)
  const socket: unknown = Reflect.get(source, "socket")
  return () => (typeof socket === "object" && socket !== null ? hostOf(socket) : undefined)
}

/** `WebSocket.OPEN`. */
const OPEN = 1

/** The part of `ws`'s Sender (its `_sender`) that says whether it holds frames back. */
interface WsSender {
  /** 0 (DEFAULT) when idle; otherwise compressing or reading a Blob, with later frames queued. */
  readonly _state: number
  readonly _queue: ReadonlyArray<unknown>
  readonly _socket: unknown
  readonly _extensions: object
}

const isWsSender = (value: unknown): value is WsSender =>
  typeof value === "object" &&
  value !== null &&
  typeof Reflect.get(value, "_state") === "number" &&
  Array.isArray(Reflect.get(value, "_queue")) &&
  typeof Reflect.get(value, "_extensions") === "object"

interface TcpSocket {
  readonly write: (chunk: Uint8Array) => boolean
}

const isTcpSocket = (value: unknown): value is TcpSocket =>
  typeof value === "object" && value !== null && typeof Reflect.get(value, "write") === "function"

/**
 * Writes a whole frame (WireFrames) straight to the TCP socket, as `ws`'s Sender itself would write
 * it (`sendFrame`: `socket.write`), but one Buffer shared by every socket instead of a header and the
 * text re-encoded per socket. Only while the Sender is idle (DEFAULT, nothing queued: a frame it
 * holds back must go first) and the WebSocket open (a closing one takes no more frames; `ws.send`
 * then counts and drops them); never with permessage-deflate (`ws.send` may compress). What the
 * frame costs in buffer is the TCP socket's `writableLength`, as for `ws.send`: the gateway's bound
 * sees it alike. Undefined (every write through `ws.send`) when `ws` is not shaped as expected.
 */
const frameWriterOf = (ws: WsSocket, socket: object): ((frame: Uint8Array) => boolean) | undefined => {
  const sender: unknown = Reflect.get(ws, "_sender")
  if (!isWsSender(sender) || sender._socket !== socket || !isTcpSocket(socket)) return undefined
  if (Object.keys(sender._extensions).length > 0) return undefined
  return (frame) => {
    if (ws.readyState !== OPEN || sender._state !== 0 || sender._queue.length > 0) return false
    socket.write(frame)
    return true
  }
}

const hostOf = (socket: object): Gateway.HostSocket | undefined => {
  const mark = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === "websocket")
  const ws: unknown = mark === undefined ? undefined : Reflect.get(socket, mark)
  if (!isWsSocket(ws)) return undefined
  for (const event of ["message", "close", "error"])
    for (const listener of ws.listeners(event))
      if (addedAsEventListener(listener)) ws.removeListener(event, listener as never)
  ws.binaryType = "nodebuffer"
  // an error is always followed by the close, which is what the gateway acts on
  ws.on("error", () => {})
  return {
    send: (text) => ws.send(text),
    sendFrame: frameWriterOf(ws, socket),
    close: (code, reason) => ws.close(code, reason),
    listen: (onText, onClose) => {
      // text and binary frames alike as UTF-8 text, as the Socket's reader decoded them
      ws.on("message", (data: Buffer | ReadonlyArray<Buffer>) =>
        onText(Array.isArray(data) ? Buffer.concat(data).toString("utf8") : data.toString("utf8"))
      )
      ws.on("close", (code: number) => onClose(code))
      // closed before these listeners (its close went to the reader): over now, or never told
      if (ws.readyState === CLOSED) onClose(1006)
    },
    release: (closeWrapper) => {
      // The wrapper's release closes the WebSocket: not this once. Its class's `close` is a no-op
      // while the release runs (synchronously). An own property set and deleted on the socket
      // instead turns the object into a slow dictionary (1.4 KB more a connection, slower sends).
      const proto: unknown = Object.getPrototypeOf(ws)
      if (typeof proto !== "object" || proto === null || !Object.hasOwn(proto, "close")) return
      const close: unknown = Reflect.get(proto, "close")
      Reflect.set(proto, "close", () => {})
      try {
        closeWrapper()
      } finally {
        Reflect.set(proto, "close", close)
      }
      forgetUpgradeFiber(socket)
    }
  }
}

const upgradeRequired = HttpServerResponse.jsonUnsafe(ErrorBody.general(426), { status: 426 })

export const route = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const gateway = yield* Gateway.Gateway
    yield* router.add("GET", PATH, (request) =>
      Effect.gen(function* () {
        if (request.headers.upgrade?.toLowerCase() !== "websocket") return upgradeRequired
        const socket = yield* request.upgrade
        yield* gateway.connect(socket, {
          ...paramsOf(request.url),
          bufferedAmount: bufferedAmountOf(request.source),
          takeOver: takeOverOf(request.source)
        })
        // the socket is open and served by the gateway's own fiber: this request ends here (a 101 in
        // the access log at the upgrade). Never written after an upgrade (the socket has answered).
        return HttpServerResponse.empty({ status: 101 })
      }).pipe(Effect.catchTag("HttpServerError", () => Effect.succeed(upgradeRequired)))
    )
  })
)
