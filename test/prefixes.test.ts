/**
 * `/api/v1`, `/api/v9` and `/api/v10` answer alike: a routed endpoint with a path parameter, a 404,
 * a 405 with its `Allow`; the access log names the URL as sent. Near-miss prefixes answer as the
 * router answered them when each prefix had its own routes.
 */
import { describe, expect, layer } from "@effect/vitest"
import type { AccessLog } from "@veche/rest"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"

const entries: Array<AccessLog.Entry> = []

const answerOf = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (body) => ({ status: response.status, allow: response.headers.get("allow"), body })
  )

describe("API prefixes", () => {
  layer(TestHost.layer({ accessLog: (entry) => entries.push(entry) }))((it) => {
    it.effect("each prefix answers a routed endpoint, a 404 and a 405 alike; the log keeps the URL as sent", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const answers = []
        for (const prefix of ["/api/v1", "/api/v9", "/api/v10"]) {
          entries.length = 0
          const invite = yield* answerOf(yield* host.fetch(`${prefix}/invites/nosuchcode?with_counts=true`))
          const missing = yield* answerOf(yield* host.fetch(`${prefix}/invites/nosuchcode/nothing`))
          const wrongMethod = yield* answerOf(yield* host.fetch(`${prefix}/invites/nosuchcode`, { method: "PUT" }))
          answers.push({ invite, missing, wrongMethod })
          expect(entries.map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
            `GET ${prefix}/invites/nosuchcode?with_counts=true 401`,
            `GET ${prefix}/invites/nosuchcode/nothing 404`,
            `PUT ${prefix}/invites/nosuchcode 405`
          ])
        }
        expect(answers[0]).toEqual({
          // the route's answer (its credentials are checked), not the router's 404
          invite: { status: 401, allow: null, body: '{"code":40001,"message":"Unauthorized"}' },
          missing: { status: 404, allow: null, body: '{"code":0,"message":"404: Not Found"}' },
          wrongMethod: {
            status: 405,
            allow: "GET, POST, DELETE",
            body: '{"code":0,"message":"405: Method Not Allowed"}'
          }
        })
        expect(answers[1]).toEqual(answers[0])
        expect(answers[2]).toEqual(answers[0])
      })
    )

    it.effect("near-miss and unusual forms of a prefix answer as the router always answered them", () =>
      Effect.gen(function* () {
        const host = yield* TestHost.TestHost
        const cases: ReadonlyArray<readonly [string, string, number, string | null]> = [
          ["GET", "/api/v10", 404, null],
          ["GET", "/api/v9", 404, null],
          ["GET", "/api/v10/", 404, null],
          ["GET", "/api/v100/version", 404, null],
          ["GET", "/api/v10x/version", 404, null],
          ["GET", "/api/v91/version", 404, null],
          ["GET", "/api/v10version", 404, null],
          ["POST", "/api/v100/version", 404, null],
          ["GET", "/api/v10/version/", 200, null],
          ["GET", "/API/V10/version", 200, null],
          ["GET", "/api/V9/version", 200, null],
          ["GET", "http://veche.test//api//v10//version", 200, null],
          ["GET", "http://veche.test/api/v10//version", 200, null],
          ["GET", "/api/v%31%30/version", 200, null],
          ["GET", "/api/v10/version?limit=1", 200, null],
          ["POST", "/API/v9/version", 405, "GET"],
          // HEAD meets the fallback route before the router tries GET
          ["HEAD", "/api/v9/version", 405, "GET"],
          ["HEAD", "/api/v10/nothing", 404, null],
          // the docs and the document are served at /api/v1 only
          ["GET", "/api/v1/openapi.json", 200, null],
          ["GET", "/api/v9/openapi.json", 404, null],
          ["GET", "/api/v10/docs", 404, null],
          ["GET", "/api/v10/docs/", 404, null],
          ["GET", "/API/V10/Docs?x=1", 404, null],
          ["POST", "/api/v10/docs", 404, null],
          ["POST", "/api/v1/docs", 404, null],
          ["GET", "/api/v10/docsx", 404, null],
          // outside the API (a WebSocket upgrade is expected)
          ["GET", "/gateway", 426, null]
        ]
        const seen = []
        for (const [method, path] of cases) {
          const response = yield* host.fetch(path, { method })
          seen.push([method, path, response.status, response.headers.get("allow")])
        }
        expect(seen).toEqual(cases)
      })
    )
  })
})
