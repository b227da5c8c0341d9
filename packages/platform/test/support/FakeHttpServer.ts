/**
 * A local stand-in for a provider's HTTP API: a node:http server on 127.0.0.1 that records every
 * request (method, path, headers, body) and answers as the test says, including not at all (to
 * exercise time limits). It lives for the enclosing scope. Tests never reach the internet.
 */
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"

export interface Received {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The body read as a form (`a=1&b=2`). */
  readonly form: Readonly<Record<string, string>>
}

export type Reply =
  | { readonly status?: number; readonly json: unknown }
  | { readonly status: number; readonly text: string }
  /** Keep the connection open without answering. */
  | { readonly hang: true }

export interface FakeHttpServer {
  readonly baseUrl: string
  readonly received: ReadonlyArray<Received>
}

export const start = (reply: (request: Received) => Reply): Effect.Effect<FakeHttpServer, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.callback<{ server: ReturnType<typeof createServer>; fake: FakeHttpServer }>((resume) => {
      const received: Array<Received> = []
      const server = createServer((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (chunk: Buffer) => chunks.push(chunk))
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8")
          const request: Received = {
            method: req.method ?? "",
            path: req.url ?? "",
            headers: req.headers,
            body,
            form: Object.fromEntries(new URLSearchParams(body))
          }
          received.push(request)
          const answer = reply(request)
          if ("hang" in answer) return
          if ("json" in answer) {
            res.writeHead(answer.status ?? 200, { "content-type": "application/json" })
            res.end(JSON.stringify(answer.json))
          } else {
            res.writeHead(answer.status, { "content-type": "text/html" })
            res.end(answer.text)
          }
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo
        resume(Effect.succeed({ server, fake: { baseUrl: `http://127.0.0.1:${port}`, received } }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ fake }) => fake))

/** A base URL where nothing listens: a port that was just free on loopback. */
export const closedBaseUrl: Effect.Effect<string> = Effect.callback<string>((resume) => {
  const server = createServer()
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    server.close(() => resume(Effect.succeed(`http://127.0.0.1:${port}`)))
  })
})
