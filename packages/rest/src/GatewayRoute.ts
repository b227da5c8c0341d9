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

/**
 * The `ws` WebSocket that took over Node's upgraded TCP socket: `ws` marks the socket with it under
 * its own `Symbol("websocket")` (not exported). Its `send(text)` is synchronous and is what the
 * Socket's writer calls in the end; the gateway calls it directly (one frame per session per
 * dispatch, where a fiber run per write measured a tenth of the fan-out's time). Other hosts, or
 * another `ws` that no longer marks the socket: undefined (the gateway writes through the Socket).
 */
const sendTextOf =
  (source: object): (() => ((text: string) => void) | undefined) =>
  () => {
    const socket: unknown = Reflect.get(source, "socket")
    if (typeof socket !== "object" || socket === null) return undefined
    const mark = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === "websocket")
    const ws: unknown = mark === undefined ? undefined : Reflect.get(socket, mark)
    if (typeof ws !== "object" || ws === null) return undefined
    const send: unknown = Reflect.get(ws, "send")
    if (typeof send !== "function") return undefined
    return (text) => {
      Reflect.apply(send, ws, [text])
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
          sendText: sendTextOf(request.source)
        })
        // the socket is open and served by the gateway's own fiber: this request ends here (a 101 in
        // the access log at the upgrade). Never written after an upgrade (the socket has answered).
        return HttpServerResponse.empty({ status: 101 })
      }).pipe(Effect.catchTag("HttpServerError", () => Effect.succeed(upgradeRequired)))
    )
  })
)
