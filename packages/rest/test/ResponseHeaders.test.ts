/** `withLowerCase` must answer what effect's `setHeaders` answers: it replaces it on every request. */
import { describe, expect, it } from "@effect/vitest"
import { Headers, HttpServerResponse } from "effect/http"
import * as ResponseHeaders from "../src/ResponseHeaders.ts"

const responses = (): ReadonlyArray<HttpServerResponse.HttpServerResponse> => [
  HttpServerResponse.jsonUnsafe({ version: "1" }),
  HttpServerResponse.jsonUnsafe({ code: 0 }, { status: 404, headers: { vary: "Accept-Encoding", "x-one": "1" } }),
  HttpServerResponse.empty({ status: 204 }),
  HttpServerResponse.text("hi", { status: 413, headers: { connection: "close" } })
]

describe("ResponseHeaders.withLowerCase", () => {
  it("sets the headers as HttpServerResponse.setHeaders does: same names, values and order; the rest unchanged", () => {
    const added = { vary: "Origin", "x-ratelimit-limit": "5", "x-ratelimit-bucket": "abc" }
    for (const response of responses()) {
      const ours = ResponseHeaders.withLowerCase(response, added)
      const theirs = HttpServerResponse.setHeaders(response, added)
      expect(Object.entries(ours.headers)).toEqual(Object.entries(theirs.headers))
      expect(Headers.isHeaders(ours.headers)).toBe(true)
      expect(HttpServerResponse.isHttpServerResponse(ours)).toBe(true)
      expect([ours.status, ours.statusText, ours.body, ours.cookies]).toEqual([
        theirs.status,
        theirs.statusText,
        theirs.body,
        theirs.cookies
      ])
      // the response it was given is left as it was
      expect(response.headers["x-ratelimit-limit"]).toBeUndefined()
    }
  })
})
