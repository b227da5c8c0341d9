/**
 * The edge's compiled answers (`HttpEdge.answerBeforeApp`: `GET /version`, `/gateway`) written
 * straight to Node's response, before effect's Node adapter makes the request a fiber. That
 * adapter writes a synchronous answer the same way (`writeHead(status, headers)`, then `end(body)`,
 * within the `request` event), so the wire output is the same; what is spared is the fiber, its
 * context, the request wrapper and the response conversion, which cost more than such an answer
 * itself. Every other request goes to the app as before.
 *
 * Unlike the adapter, no `strictContentLength`: that check changes no byte (the edge's answers state
 * their own body's length), but Node then cannot send head and body as one string and makes a
 * second, empty write, so the socket writes two chunks (`writev`). Side by side it cost ≈0.8 µs a
 * request (`/version`, 17.5 → 16.7 µs).
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { HttpEdge } from "@veche/rest"

type AnswerBeforeApp = NonNullable<ReturnType<typeof HttpEdge.answerBeforeApp>>

/** `server`, answering what `answer` answers before its `request` listeners run. */
export const installed = <S extends Server>(server: S, answer: AnswerBeforeApp | undefined): S => {
  if (answer === undefined) return server
  const emit = server.emit
  // `emit` is the one place a request can be answered before the adapter's listener sees it. It
  // runs for every event of the server: its arguments are passed on as they came, without the
  // rest-array and spread copies (≈60 ns an event, measured alone).
  const emitAnsweringFirst = function (
    this: S,
    event: string | symbol,
    request?: IncomingMessage,
    response?: ServerResponse
  ): boolean {
    // HTTP/1 only: the adapter decides HTTP/2's connection headers itself. Only while the app
    // listens: before it is attached and after its shutdown, requests go where they went before.
    if (
      event === "request" &&
      request !== undefined &&
      response !== undefined &&
      request.httpVersionMajor === 1 &&
      this.listenerCount("request") > 0
    ) {
      const answered = answer(request.method ?? "", request.url ?? "", request.headers, request.socket.remoteAddress)
      if (answered !== undefined) {
        response.writeHead(answered.status, answered.headers as Array<string>)
        response.end(answered.body)
        return true
      }
    }
    // biome-ignore lint/complexity/noArguments: forwarded as received, without copying them
    return emit.apply(this, arguments as unknown as Parameters<S["emit"]>)
  }
  server.emit = emitAnsweringFirst as S["emit"]
  return server
}
