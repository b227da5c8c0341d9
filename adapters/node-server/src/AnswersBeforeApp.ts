/**
 * The edge's compiled answers (`HttpEdge.answerBeforeApp`: `GET /version`, `/gateway`) written
 * straight to Node's response, before effect's Node adapter makes the request a fiber. That
 * adapter writes a synchronous answer the same way (`writeHead(status, headers)`, then `end(body)`,
 * within the `request` event, with `strictContentLength`), so the wire output is the same; what is
 * spared is the fiber, its context, the request wrapper and the response conversion, which cost
 * more than such an answer itself. Every other request goes to the app as before.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { HttpEdge } from "@veche/rest"

type AnswerBeforeApp = NonNullable<ReturnType<typeof HttpEdge.answerBeforeApp>>

/** `server`, answering what `answer` answers before its `request` listeners run. */
export const installed = <S extends Server>(server: S, answer: AnswerBeforeApp | undefined): S => {
  if (answer === undefined) return server
  const emit = server.emit
  // `emit` is the one place a request can be answered before the adapter's listener sees it.
  const emitAnsweringFirst = function (this: S, event: string | symbol, ...args: Array<unknown>): boolean {
    if (event === "request") {
      const request = args[0] as IncomingMessage
      const response = args[1] as ServerResponse
      // HTTP/1 only: the adapter decides HTTP/2's connection headers itself. Only while the app
      // listens: before it is attached and after its shutdown, requests go where they went before.
      if (request.httpVersionMajor === 1 && this.listenerCount("request") > 0) {
        const answered = answer(request.method ?? "", request.url ?? "", request.headers, request.socket.remoteAddress)
        if (answered !== undefined) {
          response.strictContentLength = true
          response.writeHead(answered.status, answered.headers)
          response.end(answered.body)
          return true
        }
      }
    }
    return Reflect.apply(emit, this, [event, ...args])
  }
  server.emit = emitAnsweringFirst as S["emit"]
  return server
}
