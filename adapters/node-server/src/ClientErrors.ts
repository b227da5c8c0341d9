/**
 * Requests Node refuses before the app sees them (a NUL or raw non-ASCII byte in the path, a
 * malformed header or Content-Length, headers too large, a request that took too long) get the
 * API's error body too. Node's own answers carry no body, and every error the API gives is JSON
 * with an integer `code`.
 */
import type { Server } from "node:http"
import type { Duplex } from "node:stream"
import { ErrorBody } from "@veche/errors"

const REASONS: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  413: "Payload Too Large",
  431: "Request Header Fields Too Large"
}

/** The status Node would have answered for the error (its own choice, kept). */
const statusOf = (code: string | undefined): number => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return 431
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return 413
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return 408
    default:
      return 400
  }
}

/** A whole HTTP/1.1 answer that closes the connection. */
export const answer = (status: number): string => {
  const body = JSON.stringify(ErrorBody.general(status))
  return (
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Bad Request"}\r\n` +
    "Content-Type: application/json\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "Connection: close\r\n\r\n" +
    body
  )
}

/**
 * Node's own `clientError` behaviour with our body: answer only when no answer to this connection
 * has started (else the bytes would corrupt it), then close.
 */
export const installed = (server: Server): Server => {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as unknown as { readonly _httpMessage?: { readonly headersSent?: boolean } })._httpMessage
    if (error.code !== "ECONNRESET" && socket.writable && inFlight?.headersSent !== true) {
      socket.end(answer(statusOf(error.code)))
      // a client that never reads or closes its side must not hold the socket
      setTimeout(() => socket.destroy(), 1_000).unref()
      return
    }
    socket.destroy(error)
  })
  return server
}
