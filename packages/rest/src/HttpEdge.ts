/**
 * What every request passes through before and after the router, in every host: the client address
 * from trusted proxies, percent-decoded path segments, the body limit (a declared oversized body is
 * refused before it is read), one access-log line with secrets redacted, an Error line for every
 * defect, and an error body in the API's shape on every error answer (including those the
 * framework writes itself: 413 for an oversized body, 415, defects as 500).
 */
import { ErrorBody } from "@veche/errors"
import { ByteSize, Cause, Clock, Context, Effect, type Fiber, Option } from "effect"
import { HttpEffect, HttpMiddleware, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { IpNetwork } from "effect/net"
import * as AccessLog from "./AccessLog.ts"
import type * as CompiledAnswers from "./CompiledAnswers.ts"
import * as ResponseHeaders from "./ResponseHeaders.ts"

/**
 * `/users/%40me` routes as `/users/@me` (bot libraries encode `@`). Segments are decoded one by
 * one and an encoded `/`, `?`, `#` or `%` stays encoded, so decoding never changes the path's shape.
 */
export const decodePath = (url: string): string => {
  const queryAt = url.indexOf("?")
  const path = queryAt === -1 ? url : url.slice(0, queryAt)
  if (!path.includes("%")) return url
  const decoded = path
    .split("/")
    .map((segment) => {
      if (!segment.includes("%")) return segment
      try {
        return decodeURIComponent(segment).replace(/[%/?#]/g, encodeURIComponent)
      } catch {
        return segment // malformed escapes: leave as sent; the router answers 404
      }
    })
    .join("/")
  return queryAt === -1 ? decoded : decoded + url.slice(queryAt)
}

/** Largest request body read (larger answers 413 40005). */
export const MAX_BODY_BYTES = 1024 * 1024

/**
 * Routes that take images in their JSON body get a larger limit than the API-wide 1 MiB: a 3 MiB
 * banner is 4 MiB of base64. The image's own limits are checked on its bytes.
 */
export const LARGE_BODY_BYTES = 6 * 1024 * 1024
const LARGE_BODY_ROUTES: ReadonlyArray<{ readonly method: string; readonly path: RegExp }> = [
  { method: "PATCH", path: /^(https?:\/\/[^/]+)?\/api\/v(1|9|10)\/users\/@me\/?(\?|$)/ },
  // a guild's icon and banner
  { method: "POST", path: /^(https?:\/\/[^/]+)?\/api\/v(1|9|10)\/guilds\/?(\?|$)/ },
  { method: "PATCH", path: /^(https?:\/\/[^/]+)?\/api\/v(1|9|10)\/guilds\/\d+\/?(\?|$)/ }
]

const LARGE_BODY = ByteSize.bytes(LARGE_BODY_BYTES)
const DEFAULT_BODY = ByteSize.bytes(MAX_BODY_BYTES)

/**
 * Answered at once, before any of the body is read, to a request that declares a body over its
 * route's limit. `Connection: close` makes the server drop the rest of the upload rather than read
 * it to keep the connection: a client that declared 5 MB, sent 1 MB and stalled used to get no
 * answer at all (the reader waited for bytes that would put it over the limit).
 */
const tooLarge = HttpServerResponse.jsonUnsafe(ErrorBody.general(413), {
  status: 413,
  headers: { connection: "close" }
})

/**
 * The body limit per request, set here at the edge (hosts must not also provide one in a layer);
 * a declared `Content-Length` over it answers 413 before the router. A body sent without a length
 * (chunked) is cut off by the reader once it passes the limit. A GET or HEAD with neither header
 * has no body (HTTP/1.1; a fetch `Request` cannot carry one), so it gets no limit to read by: most
 * requests are such GETs. Other methods always get one: a web `Request`'s body has no length header.
 */
const bodyLimitOf = (
  request: HttpServerRequest.HttpServerRequest,
  url: string
): ByteSize.ByteSize | "too large" | undefined => {
  const declared = request.headers["content-length"]
  if (
    declared === undefined &&
    (request.method === "GET" || request.method === "HEAD") &&
    request.headers["transfer-encoding"] === undefined
  )
    return undefined
  const large = LARGE_BODY_ROUTES.some((route) => route.method === request.method && route.path.test(url))
  if (declared !== undefined && Number(declared) > (large ? LARGE_BODY_BYTES : MAX_BODY_BYTES)) return "too large"
  return large ? LARGE_BODY : DEFAULT_BODY
}

/**
 * The app as the router should see this request: its path decoded (`decodePath`) and its body
 * limit provided, both in one synchronous step, with no context update when neither applies.
 */
const routed = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> => {
  const url = decodePath(request.url)
  const limit = bodyLimitOf(request, url)
  if (limit === "too large") return Effect.succeed(tooLarge)
  const limited = limit === undefined ? app : Effect.provideService(app, HttpServerRequest.MaxBodySize, limit)
  return url === request.url
    ? limited
    : Effect.provideService(limited, HttpServerRequest.HttpServerRequest, request.modify({ url }))
}

/** A body in the API's shape for error answers that do not have one. */
export const withErrorBody = (
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  if (response.status < 400 || response.headers["content-type"]?.startsWith("application/json")) return response
  const { "content-type": _type, "content-length": _length, ...headers } = response.headers
  // HttpApi answers a body in a media type it does not read with a text 415; the mirrored
  // platform answers such requests as a bad form body.
  if (response.status === 415) {
    return HttpServerResponse.jsonUnsafe(ErrorBody.unsupportedContentType(), { status: 400, headers })
  }
  return HttpServerResponse.jsonUnsafe(ErrorBody.general(response.status), { status: response.status, headers })
}

/**
 * Each request's id, unique within the process and, through a random prefix, across nodes: it ties
 * a defect's Error line to its access line.
 */
const ID_PREFIX = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("")
let requestCount = 0
export const nextRequestId = (): string => `${ID_PREFIX}-${(++requestCount).toString(36)}`

/**
 * A defect (an SQL error, a bug) answers 500 `{code: 0}` and must not vanish: its cause is logged at
 * Error with the request id, method and path (query values redacted); never headers or the body.
 * HttpApi adds the answer it chose to the cause as a defect of its own: that part is not the cause,
 * and a cause that answers below 500 (a refusal the framework raised) is not a defect.
 */
const logDefect = (requestId: string, request: HttpServerRequest.HttpServerRequest) => (cause: Cause.Cause<unknown>) =>
  Effect.flatMap(HttpServerError.causeResponse(cause), ([response]) => {
    const reasons = cause.reasons.filter(
      (reason) =>
        reason._tag === "Fail" || (reason._tag === "Die" && !HttpServerResponse.isHttpServerResponse(reason.defect))
    )
    if (response.status < 500 || reasons.length === 0) return Effect.void
    return Effect.logError(
      `request ${requestId} failed: ${request.method} ${AccessLog.redactQuery(request.url)}`,
      Cause.fromReasons(reasons)
    )
  })

export interface Options {
  readonly trustedProxies: ReadonlyArray<IpNetwork.IpNetwork>
  /**
   * One line per answered request: `false` (tests), `true` (through the Effect logger at Info), or
   * a sink given each request's entry (the reference server's batched stdout writer, far cheaper
   * than a logger call per request).
   */
  readonly accessLog: boolean | AccessLog.Sink
  /**
   * Origins whose pages may call the API from a browser (a front end served elsewhere): they get
   * CORS answers, preflights included. None (the default): no CORS headers, as same-origin pages need.
   */
  readonly corsOrigins?: ReadonlyArray<string> | undefined
  /**
   * Endpoints the edge answers itself from their compiled form (`CompiledAnswers`; the host fills
   * the table with `CompiledAnswers.layer` beside the routes). None: every request is routed.
   */
  readonly compiledAnswers?: CompiledAnswers.Table | undefined
}

/** What a browser page may send and read: the headers bot and web clients use, and the limits'. */
const CORS_ALLOWED_HEADERS = ["authorization", "content-type", "x-audit-log-reason"]
const CORS_EXPOSED_HEADERS = [
  "retry-after",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-reset-after",
  "x-ratelimit-bucket",
  "x-ratelimit-scope",
  "x-ratelimit-global"
]

/**
 * CORS for these origins (exact `scheme://host[:port]` matches), or none: effect's `cors` answers
 * preflights (`OPTIONS`, before anything else runs, as it always did); every other answer gets the
 * headers `cors` would set (`corsHeaders`) from the edge's own pre-response step instead of a second
 * one, in one header copy.
 */
const corsFor = (origins: ReadonlyArray<string> | undefined) => {
  if (origins === undefined || origins.length === 0) return undefined
  const allowed = new Set(origins)
  return {
    allowed,
    exposed: CORS_EXPOSED_HEADERS.join(","),
    preflight: HttpMiddleware.cors({
      // A predicate, so only an allowed request's own origin is echoed (never another, never `*`).
      allowedOrigins: (origin) => allowed.has(origin),
      allowedHeaders: CORS_ALLOWED_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600
    })
  }
}

type Cors = NonNullable<ReturnType<typeof corsFor>>

/** effect's `Vary` merge: the dimension appended unless listed already (or `*`). */
const varyWith = (vary: string | undefined, dimension: string): string => {
  if (vary === undefined) return dimension
  const members = vary.split(",").map((member) => member.trim().toLowerCase())
  return members.includes("*") || members.includes(dimension.toLowerCase()) ? vary : `${vary}, ${dimension}`
}

/** What effect's `cors` sets on an answer that is not a preflight, in its order. */
const corsHeaders = (
  cors: Cors,
  origin: string | undefined,
  response: HttpServerResponse.HttpServerResponse
): Record<string, string> => {
  const vary = varyWith(response.headers.vary, "Origin")
  return origin !== undefined && cors.allowed.has(origin)
    ? { "access-control-allow-origin": origin, vary, "access-control-expose-headers": cors.exposed }
    : { vary, "access-control-expose-headers": cors.exposed }
}

/** The answer as sent: CORS headers (when configured), then our error body. */
const finished = (
  cors: Cors | undefined,
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
) =>
  withErrorBody(
    cors === undefined
      ? response
      : ResponseHeaders.withLowerCase(response, corsHeaders(cors, request.headers.origin, response))
  )

/**
 * A compiled answer as sent: it is JSON, so `withErrorBody` leaves it alone; the edge's CORS
 * headers, then the limiter's (its pre-response handler runs after the edge's), in one copy.
 */
const compiledResponse = (
  cors: Cors | undefined,
  origin: string | undefined,
  answer: CompiledAnswers.Answer
): HttpServerResponse.HttpServerResponse => {
  const response = answer.response
  const added =
    cors === undefined ? answer.limiterHeaders : { ...corsHeaders(cors, origin, response), ...answer.limiterHeaders }
  for (const _ in added) return ResponseHeaders.withLowerCase(response, added)
  return response
}

const compiledEntry = (
  method: string,
  url: string,
  status: number,
  address: string | undefined,
  started: number
): AccessLog.Entry => ({
  method,
  url,
  status,
  durationMs: performance.now() - started,
  address,
  requestId: nextRequestId()
})

/**
 * A compiled answer as a host outside Effect writes it: status, headers in order as one flat list
 * (`[name1, value1, name2, value2, …]`, what Node's `writeHead` takes at least cost), body text whose
 * UTF-8 length the `content-length` header already states.
 */
export interface PlainAnswer {
  readonly status: number
  readonly headers: ReadonlyArray<string>
  readonly body: string
}

/**
 * Flat headers `answerBeforeApp` builds a compiled answer's headers from: a response's own headers
 * and the CORS headers its requests get (the order `compiledResponse` gives them), kept per response
 * and origin, since a compiled endpoint answers the same response object again and again.
 */
interface HeadersBefore {
  readonly flat: ReadonlyArray<string>
  readonly names: ReadonlySet<string>
}

const headersBeforeOf = (headers: Readonly<Record<string, string>>): HeadersBefore => {
  const names = Object.keys(headers)
  const flat: Array<string> = []
  for (const name of names) flat.push(name, headers[name] as string)
  return { flat, names: new Set(names) }
}

/** `before` then `after`, as `Object.assign` merges them (a name in both keeps its first place), flat. */
const flatHeaders = (before: HeadersBefore, after: Readonly<Record<string, string>>): ReadonlyArray<string> => {
  const flat = before.flat.slice()
  for (const name in after) {
    if (!before.names.has(name)) flat.push(name, after[name] as string)
    else
      for (let i = 0; i < flat.length; i += 2)
        if (flat[i] === name) {
          flat[i + 1] = after[name] as string
          break
        }
  }
  return flat
}

/**
 * The edge's compiled answers for a host to try before it hands a request to the app (the Node
 * server, where a request's fiber, request object and response conversion cost more than the answer
 * itself): the same answer, headers and access-log entry the edge gives them. Undefined when the
 * request is not one of them or must pass the edge's other steps (an X-Forwarded-For header, a
 * preflight), and when there is nothing to answer this way (no table; an access log through the
 * Effect logger, which needs a fiber).
 */
export const answerBeforeApp = (
  options: Options
):
  | ((
      method: string,
      url: string,
      headers: CompiledAnswers.RequestHeaders,
      address: string | undefined
    ) => PlainAnswer | undefined)
  | undefined => {
  const table = options.compiledAnswers
  const log = options.accessLog
  if (table === undefined || log === true) return undefined
  const cors = corsFor(options.corsOrigins)
  // Per response and allowed origin ("" for none): its headers before the limiter's. The allowed
  // origins are a handful (the configured ones); a 200 is one response object per endpoint,
  // answered again and again, and each 429 is a response of its own, whose entries go with it.
  const before = new WeakMap<HttpServerResponse.HttpServerResponse, Map<string, HeadersBefore>>()
  const headersBefore = (response: HttpServerResponse.HttpServerResponse, origin: string | undefined) => {
    const key = cors !== undefined && origin !== undefined && cors.allowed.has(origin) ? origin : ""
    let byOrigin = before.get(response)
    if (byOrigin === undefined) {
      byOrigin = new Map()
      before.set(response, byOrigin)
    }
    let found = byOrigin.get(key)
    if (found === undefined) {
      found = headersBeforeOf(
        cors === undefined
          ? response.headers
          : { ...response.headers, ...corsHeaders(cors, key === "" ? undefined : key, response) }
      )
      byOrigin.set(key, found)
    }
    return found
  }
  return (method, url, headers, address) => {
    if (headers["x-forwarded-for"] !== undefined) return undefined
    const compiled = table.lookup(method, url, headers)
    if (compiled === undefined) return undefined
    const started = performance.now()
    // effect's default clock, as the edge reads it in a server without a test clock
    const answer = compiled(address, Date.now())
    if (answer === undefined) return undefined
    const origin = headers.origin
    const response = answer.response
    const flat = flatHeaders(
      headersBefore(response, typeof origin === "string" ? origin : undefined),
      answer.limiterHeaders
    )
    if (log !== false) log(compiledEntry(method, url, response.status, address, started))
    return { status: response.status, headers: flat, body: answer.body }
  }
}

/**
 * Wraps the router app. Order, outermost first: client address (only when a request carries
 * X-Forwarded-For; then only from trusted peers), CORS preflights, one pre-response step that sets
 * CORS headers, gives error answers our body and writes the access-log line, then the defect log,
 * decoded path and body limit.
 *
 * effect's `HttpEffect` applies a server middleware to each request's app anew (see docs/traps.md):
 * everything that depends only on the options is built here once, and the function given the app
 * builds one effect a request (the rarer paths' wrappers only when a request takes them).
 */
export const middleware = (options: Options) => {
  const log = options.accessLog
  const cors = corsFor(options.corsOrigins)
  const unlogged = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) =>
    Effect.succeed(finished(cors, request, response))
  const compiled = options.compiledAnswers
  const forwardedHeaders =
    options.trustedProxies.length === 0
      ? undefined
      : HttpMiddleware.xForwardedHeaders({ trustedProxies: options.trustedProxies })
  /** A compiled endpoint's answer finished as the pre-response steps below finish a routed one. */
  const answerCompiled = (
    request: HttpServerRequest.HttpServerRequest,
    address: string | undefined,
    answer: CompiledAnswers.Answer,
    started: number
  ): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
    const final = compiledResponse(cors, request.headers.origin, answer)
    if (log === false) return Effect.succeed(final)
    // a compiled path has no query to redact
    const entry = compiledEntry(request.method, request.url, final.status, address, started)
    if (log === true) return Effect.as(Effect.logInfo(AccessLog.describe(entry)), final)
    log(entry)
    return Effect.succeed(final)
  }
  const answer = <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
    fiber: Fiber.Fiber<unknown, unknown>,
    request: HttpServerRequest.HttpServerRequest
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> => {
    const compiledEndpoint = compiled?.lookup(request.method, request.url, request.headers)
    if (compiledEndpoint !== undefined) {
      const started = performance.now()
      const address = Option.getOrUndefined(request.remoteAddress)
      const compiledAnswer = compiledEndpoint(address, fiber.getRef(Clock.Clock).currentTimeMillisUnsafe())
      if (compiledAnswer !== undefined) return answerCompiled(request, address, compiledAnswer, started)
    }
    const requestId = nextRequestId()
    const inner = Effect.tapCause(routed(app, request), logDefect(requestId, request))
    if (log === false) {
      HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, unlogged)
      return inner
    }
    const started = performance.now()
    // Read here, inside the client-address step: the handler itself is given the raw request.
    const address = Option.getOrUndefined(request.remoteAddress)
    HttpEffect.appendPreResponseHandlerUnsafe(fiber.context, (request, response) => {
      const final = finished(cors, request, response)
      const entry: AccessLog.Entry = {
        method: request.method,
        url: AccessLog.redactQuery(request.url),
        status: final.status,
        durationMs: performance.now() - started,
        address,
        requestId
      }
      if (log === true) return Effect.as(Effect.logInfo(AccessLog.describe(entry)), final)
      log(entry)
      return Effect.succeed(final)
    })
    return inner
  }
  /** `answer` for the request in the fiber's context at the time (as a wrapping step left it). */
  const answered = <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
  ): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.withFiber((fiber) =>
      answer(app, fiber, Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest))
    )
  /** Behind trusted proxies: the client address step, then preflights as below. */
  const forwarded = <E, R>(
    app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
    xForwarded: NonNullable<typeof forwardedHeaders>
  ) =>
    xForwarded(
      cors === undefined
        ? answered(app)
        : Effect.flatMap(Effect.service(HttpServerRequest.HttpServerRequest), (request) =>
            request.method === "OPTIONS" ? cors.preflight(answered(app)) : answered(app)
          )
    )
  // One step decides what a request passes through: most carry no X-Forwarded-For and are no
  // preflight, and go straight to `answer` without the two steps above.
  return <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.withFiber((fiber) => {
      const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
      if (forwardedHeaders !== undefined && request.headers["x-forwarded-for"] !== undefined) {
        return forwarded(app, forwardedHeaders)
      }
      if (cors !== undefined && request.method === "OPTIONS") return cors.preflight(answered(app))
      return answer(app, fiber, request)
    })
}
