/**
 * Headers added to an answer in one copy. effect's `HttpServerResponse.setHeaders` normalises its
 * input (`Headers.fromInput`: its entries, each name lower-cased) and copies the headers twice more
 * before building the response again; the edge and the rate limiter add headers to every answer,
 * with names that are lower-case already, and that cost ≈2 µs each time (loop of its own).
 */
import { Headers, type HttpServerResponse } from "effect/http"

const HEADERS_PROTO: object = Object.getPrototypeOf(Headers.empty)

/**
 * `response` with `added` set over its headers, then `addedAfter` (if given), as
 * `HttpServerResponse.setHeaders` would set them, once and then again (same order, an added name
 * replaces the one there). Names in both must be lower-case.
 */
export const withLowerCase = (
  response: HttpServerResponse.HttpServerResponse,
  added: Readonly<Record<string, string>>,
  addedAfter?: Readonly<Record<string, string>>
): HttpServerResponse.HttpServerResponse => {
  const headers: Headers.Headers = Object.assign(Object.create(HEADERS_PROTO), response.headers, added, addedAfter)
  // The response's own fields (status, body, cookies, headers) copied onto its prototype.
  const copy: {
    -readonly [K in keyof HttpServerResponse.HttpServerResponse]: HttpServerResponse.HttpServerResponse[K]
  } = Object.assign(Object.create(Object.getPrototypeOf(response)), response)
  copy.headers = headers
  return copy
}
