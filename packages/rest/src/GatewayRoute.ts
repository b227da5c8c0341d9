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

const upgradeRequired = HttpServerResponse.jsonUnsafe(ErrorBody.general(426), { status: 426 })

export const route = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const gateway = yield* Gateway.Gateway
    yield* router.add("GET", PATH, (request) =>
      Effect.gen(function* () {
        if (request.headers.upgrade?.toLowerCase() !== "websocket") return upgradeRequired
        const socket = yield* request.upgrade
        yield* gateway.connect(socket, { ...paramsOf(request.url), bufferedAmount: bufferedAmountOf(request.source) })
        // never written after an upgrade (the socket has answered); the access log reads its status
        return HttpServerResponse.empty({ status: 101 })
      }).pipe(Effect.catchTag("HttpServerError", () => Effect.succeed(upgradeRequired)))
    )
  })
)
