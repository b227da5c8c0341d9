/**
 * Endpoints the edge answers itself, from a form compiled at start, without the router, HttpApi's
 * middleware chain or its handler context: the plainest reads (`GET /version`, `GET /gateway`),
 * which take no params, query, headers, body or credentials. Through the whole pipeline such a
 * request cost about twice a bare `node:http` answer, nearly all of it Effect steps and objects
 * that change nothing for them.
 *
 * The compiled form is made from the HttpApi definition (paths under every prefix, the success
 * schema's JSON encoding, the rate-limit middleware's bucket) and the handler group's own answer
 * functions, so both paths answer the same: same status, body bytes and headers, the same count
 * and headers from the route limiter, the same 429. The edge then finishes it as it finishes every
 * answer (CORS headers, access-log line); the Node server writes it even before the request becomes
 * a fiber (`HttpEdge.answerBeforeApp`). A request that does not fit exactly (another method, a query
 * string, an encoded path, a body header) takes the full pipeline. `test/compiled-answers.test.ts`
 * compares both paths' answers header by header, `Edge.test.ts` (node-server) their raw bytes.
 */
import { FormBodyErrors, RateLimit, RestApi } from "@veche/api"
import { RateLimited } from "@veche/errors"
import type { ServiceInfo } from "@veche/platform"
import { RouteLimiter } from "@veche/ratelimit"
import { Effect, Layer, Schema, SchemaAST } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApi } from "effect/http-api"
import type { GatewayUrl } from "./GatewayUrl.ts"
import * as ServiceHandlers from "./handlers/ServiceHandlers.ts"
import * as RateLimitMiddleware from "./RateLimitMiddleware.ts"
import { PREFIXES } from "./RestApp.ts"

/**
 * One request's answer: the response (its body's text beside it, for hosts that write it
 * themselves), and the limiter's headers the edge sets after its own step.
 */
export interface Answer {
  readonly response: HttpServerResponse.HttpServerResponse
  readonly body: string
  readonly limiterHeaders: Readonly<Record<string, string>>
}

/**
 * A compiled endpoint: its answer to a client at `address` at `nowMs`, or undefined to leave the
 * request to the full path.
 */
export type Compiled = (address: string | undefined, nowMs: number) => Answer | undefined

/** A request's headers, as effect's request or Node's `IncomingMessage` carries them. */
export type RequestHeaders = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/**
 * The edge's table, filled when the routes are built (`layer`). Empty, it answers nothing: every
 * request takes the full path, as it does for a host that never fills it.
 */
export interface Table {
  /** The compiled endpoint for this request, if it has one and fits its compiled form. */
  readonly lookup: (method: string, url: string, headers: RequestHeaders) => Compiled | undefined
  readonly byPath: Map<string, Compiled>
}

export const makeTable = (): Table => {
  const byPath = new Map<string, Compiled>()
  return {
    byPath,
    lookup: (method, url, headers) => {
      if (method !== "GET" || byPath.size === 0) return undefined
      // A body header takes the edge's body limit (a declared oversized body answers 413).
      if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined) return undefined
      return byPath.get(url)
    }
  }
}

/** Client addresses whose prepared count an endpoint keeps at most (`RouteLimiter.prepareSync`). */
const MAX_KEPT_ADDRESSES = 10_000

/** The middleware such an endpoint may have: the rate limits (required) and body-error shaping (no body here). */
const PLAIN_MIDDLEWARE: ReadonlySet<unknown> = new Set([RateLimit.RateLimit, FormBodyErrors.FormBodyErrors])

const JSON_CONTENT_TYPE = "application/json"

const encodeRefusal = Schema.encodeSync(Schema.toCodecJson(RateLimited))

/** The 429 as HttpApi answers `RateLimited` (status from its schema, JSON body). */
const refused = (limited: RouteLimiter.RouteRateLimited): Answer => {
  const body = JSON.stringify(encodeRefusal(RateLimitMiddleware.refusal(limited)))
  return {
    response: HttpServerResponse.text(body, { status: 429, contentType: JSON_CONTENT_TYPE }),
    body,
    limiterHeaders: limited.headers
  }
}

/** Why an endpoint given an answer function cannot be compiled: a bug in the table, found at start. */
class NotCompilable extends Schema.TaggedError<NotCompilable>()("NotCompilable", {
  endpoint: Schema.String,
  reason: Schema.String
}) {}

/** Fills `table` with the endpoints of `group` that `answers` names (exported for its test). */
export const compile = (
  table: Table,
  group: string,
  answers: Readonly<Record<string, () => unknown>>,
  prepareSync: NonNullable<RouteLimiter.RouteLimiter["Service"]["prepareSync"]>
): Effect.Effect<void, NotCompilable> =>
  Effect.suspend(() => {
    const problems: Array<NotCompilable> = []
    const compiled = new Set<string>()
    HttpApi.reflect(RestApi.RestApi, {
      predicate: ({ group: candidate }) => candidate.identifier === group,
      onGroup: () => {},
      onEndpoint: ({ endpoint, successes }) => {
        const answer = answers[endpoint.identifier]
        if (answer === undefined) return
        const route = `${group}.${endpoint.identifier}`
        const refuse = (reason: string) => problems.push(new NotCompilable({ endpoint: route, reason }))
        const success = successes.get(200)
        if (endpoint.method !== "GET") return refuse("not a GET")
        if (endpoint.params !== undefined || endpoint.query !== undefined || endpoint.headers !== undefined)
          return refuse("reads params, query or headers")
        if (endpoint.payload.size > 0) return refuse("reads a body")
        if (![...endpoint.middlewares].every((key) => PLAIN_MIDDLEWARE.has(key)))
          return refuse("has middleware other than the rate limits (credentials?)")
        if (!endpoint.middlewares.has(RateLimit.RateLimit)) return refuse("is not rate-limited")
        if (successes.size !== 1 || success === undefined || success.length !== 1)
          return refuse("answers other than one 200 schema")
        // A plain struct: HttpApi answers it as JSON (no encoding annotation; not headers, a stream, an upgrade).
        if (!SchemaAST.isObjects(success[0].ast) || "~httpApiEncoding" in (success[0].ast.annotations ?? {}))
          return refuse("answers other than a plain JSON object")
        const encode = Schema.encodeSync(Schema.toCodecJson(success[0] as Schema.Codec<unknown, unknown>))
        // The last value answered and its response: an answer that returns the same (immutable) value
        // again, as `/version` always does, is encoded once.
        let lastValue: unknown
        let last: { readonly response: HttpServerResponse.HttpServerResponse; readonly body: string } | undefined
        const encoded = (value: unknown) => {
          if (last === undefined || value !== lastValue) {
            const body = JSON.stringify(encode(value))
            last = { response: HttpServerResponse.text(body, { status: 200, contentType: JSON_CONTENT_TYPE }), body }
            lastValue = value
          }
          return last
        }
        // Each client address's count on this route, prepared once.
        const countOf = RateLimitMiddleware.preparedCounts(prepareSync, route, MAX_KEPT_ADDRESSES)
        const answerAt: Compiled = (address, nowMs) => {
          let success: { readonly response: HttpServerResponse.HttpServerResponse; readonly body: string }
          try {
            success = encoded(answer())
          } catch {
            return undefined // the full path answers the failure as it answers any
          }
          const outcome = countOf(address)(nowMs)
          return outcome._tag === "Failure"
            ? refused(outcome.failure)
            : { response: success.response, body: success.body, limiterHeaders: outcome.success }
        }
        for (const prefix of PREFIXES) table.byPath.set(`${prefix}${endpoint.path}`, answerAt)
        compiled.add(endpoint.identifier)
      }
    })
    for (const identifier of Object.keys(answers))
      if (!compiled.has(identifier) && !problems.some((problem) => problem.endpoint === `${group}.${identifier}`))
        problems.push(new NotCompilable({ endpoint: `${group}.${identifier}`, reason: "no such endpoint" }))
    return problems.length === 0 ? Effect.void : Effect.fail(problems[0] as NotCompilable)
  })

/**
 * Fills `table` with the Service group's endpoints. Counters that need I/O (Redis) cannot be
 * counted here synchronously: then the table stays empty and every request takes the full path.
 */
export const layer = (
  table: Table
): Layer.Layer<never, never, RouteLimiter.RouteLimiter | GatewayUrl | ServiceInfo.ServiceInfo> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter.RouteLimiter
      if (limiter.prepareSync === undefined) return
      yield* compile(table, "service", yield* ServiceHandlers.answers, limiter.prepareSync)
    }).pipe(Effect.orDie)
  )
