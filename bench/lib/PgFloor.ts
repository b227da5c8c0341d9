/**
 * What the floors over PostgreSQL (`floors/me.ts`, `floors/login.ts`) share around their one route:
 * the JSON answer, the bench's start check (`GET /ready`, answered once the database answers), a
 * 404 for anything else, and the listener on loopback.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type * as Pg from "./Pg.ts"

export const answer = (response: ServerResponse, status: number, body: string): void => {
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  response.end(body)
}

/** A failed route's answer: the floor's own bug, never part of a measured run (the bench stops on it). */
export const failed = (response: ServerResponse) => (): void => answer(response, 500, '{"message":"500","code":0}')

/** Listens on `port`; `route` answers what it takes and says so, the rest is the start check or 404. */
export const listen = (
  port: number,
  pool: Pg.Pool,
  route: (request: IncomingMessage, response: ServerResponse) => boolean
): void => {
  createServer((request, response) => {
    if (route(request, response)) return
    if (request.method === "GET" && request.url === "/ready") {
      pool.query({ text: "SELECT 1" }).then(
        () => answer(response, 200, "{}"),
        () => answer(response, 503, "{}")
      )
      return
    }
    answer(response, 404, '{"code":0,"message":"404: Not Found"}')
  }).listen(port, "127.0.0.1", () => console.log(`floor listening on ${port}`))
}
