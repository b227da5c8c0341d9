/**
 * The rate-limit middleware (the tag is `@veche/api`'s `RateLimit`): every API route counts against
 * the caller's global limit and its route's bucket before anything else runs (authentication
 * included, so guessing tokens is limited too), and every answer carries the headers bot libraries
 * schedule by.
 *
 * Who is counted: the client's address (an IPv6 /64, with its /48 as a wider global counter; see
 * `AddressGroups`), unless the route takes credentials and its Authorization header authenticated
 * lately (`KnownTokens`): then the token's own counters (by digest, never the token: counters may
 * live in Redis). The header is parsed and digested once per request (`RequestCredentials`), here
 * or by the Authorization middleware, whichever runs first. Routes without credentials ignore the header. So a junk or revoked token never
 * gets a bucket of its own, and its database lookup is paid from the address's allowance.
 */
import { Authorization, RateLimit } from "@veche/api"
import { RateLimited, unstacked } from "@veche/errors"
import { AddressGroups, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Clock, Context, Effect, Layer, Option, type Result, type Types } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { KnownTokens } from "./KnownTokens.ts"
import * as LimiterHeaders from "./LimiterHeaders.ts"
import * as RequestCredentials from "./RequestCredentials.ts"
import * as ResponseHeaders from "./ResponseHeaders.ts"

/** A token's counters are keyed by this many hex digits of its digest (128 bits: no two tokens meet). */
const TOKEN_KEY_LENGTH = 32

export interface Caller {
  readonly caller: string
  readonly network: string | undefined
}

/** The address group (and network, for IPv6) of a client at `address`. Also counted by `CompiledAnswers`. */
export const byAddressOf = (address: string | undefined): Caller => {
  const groups = AddressGroups.of(address ?? "unknown")
  return { caller: `a:${groups.narrow}`, network: groups.network === undefined ? undefined : `a:${groups.network}` }
}

/**
 * Prepared counts kept by a key (a client address; a caller and a major id), at most `maxKept`:
 * emptied when full, as the address groups' cache is.
 */
const keptCounts = <Count>(maxKept: number) => {
  const counts = new Map<string, Count>()
  return {
    get: (key: string): Count | undefined => counts.get(key),
    keep: (key: string, count: Count): Count => {
      if (counts.size >= maxKept) counts.clear()
      counts.set(key, count)
      return count
    }
  }
}

/**
 * Each client address's count on `route` (without a major id), prepared once by `prepare`
 * (`RouteLimiter.prepareSync` or `RouteLimiter.prepare`): its keys' strings are then built and
 * hashed once, not on each request. Kept for `maxKept` addresses. Also used by `CompiledAnswers`.
 */
export const preparedCounts = <Count>(
  prepare: (request: RouteLimiter.Request) => Count,
  route: string,
  maxKept: number
): ((address: string | undefined) => Count) => {
  const counts = keptCounts<Count>(maxKept)
  return (address) => {
    const key = address ?? "unknown"
    const count = counts.get(key)
    if (count !== undefined) return count
    const { caller, network } = byAddressOf(address)
    return counts.keep(key, prepare({ route, majorId: undefined, caller, network }))
  }
}

/**
 * Each caller's count on `route` and major id, prepared once as `preparedCounts` prepares an
 * address's: for every request the address map does not take, i.e. those with an Authorization
 * header on a route that takes credentials (a known token's own count, a bot's requests mostly, or
 * else its address's) and any on a route with a major id. The caller's network needs no place in
 * the key: it follows from the caller (the same address's wider group, or none).
 */
const preparedCallerCounts = <Count>(
  prepare: (request: RouteLimiter.Request) => Count,
  route: string,
  maxKept: number
): ((caller: Caller, majorId: string | undefined) => Count) => {
  const counts = keptCounts<Count>(maxKept)
  return ({ caller, network }, majorId) => {
    // A caller never holds a space (`a:` and an address group, or `t:` and hex), so the first space
    // ends it whatever the major id holds.
    const key = majorId === undefined ? caller : `${caller} ${majorId}`
    const count = counts.get(key)
    if (count !== undefined) return count
    return counts.keep(key, prepare({ route, majorId, caller, network }))
  }
}

/** The client's address group (and network, for IPv6). */
const byAddress = (request: HttpServerRequest.HttpServerRequest): Caller =>
  byAddressOf(Option.getOrUndefined(request.remoteAddress))

/** A known token's counters (by its digest, from `RequestCredentials`), else the address's. */
const byKnownToken = (
  request: HttpServerRequest.HttpServerRequest,
  known: KnownTokens["Service"],
  nowMs: number
): Caller => {
  const credentials = RequestCredentials.of(request)
  return typeof credentials === "string" || !known.isKnown(credentials.known, nowMs)
    ? byAddress(request)
    : { caller: `t:${credentials.digest.slice(0, TOKEN_KEY_LENGTH)}`, network: undefined }
}

const hasAuthorization = (request: HttpServerRequest.HttpServerRequest): boolean => {
  const authorization = request.headers.authorization
  return authorization !== undefined && authorization !== ""
}

const majorIdOf = (params: Readonly<Record<string, string | undefined>>): string | undefined => {
  for (const name of RouteBuckets.MAJOR_PARAMETERS) {
    const value = params[name]
    if (value !== undefined) return value
  }
  return undefined
}

/**
 * The limiter's headers go on the final response, whatever it is: a success, a declared error or
 * the 429 itself. The edge in front sets them in its own pre-response step (`LimiterHeaders`);
 * without an edge, a pre-response handler of their own (one per request: it holds them).
 */
const setHeadersOnAnswer = (
  context: Context.Context<never>,
  request: HttpServerRequest.HttpServerRequest,
  headers: Record<string, string>
) => {
  if (LimiterHeaders.offer(request.source, headers)) return
  HttpEffect.appendPreResponseHandlerUnsafe(context, (_request, response) =>
    Effect.succeed(ResponseHeaders.withLowerCase(response, headers))
  )
}

/**
 * Callers whose prepared count (`RouteLimiter.prepareSync`, or `prepare` for Redis) one route keeps
 * in each of its two maps at most (client addresses; callers and major ids): a map is emptied when
 * full, as the address groups' cache is. Each holds its keys' strings and header texts (≈0.3–0.5 kB,
 * ≈1 kB with a major id at the router's 100-character bound). A scanner calling every route from
 * many addresses, or one address naming many major ids, fills each route's maps: over an API of ≈120
 * routes 256 bounds the address maps at ≈15 MB and the caller maps at ≈20 MB, while a caller that
 * calls a route again and again (what the prepared count is for) stays in it. A caller that does
 * not (a bot spread over more guilds than this) costs a count prepared per request, as it did
 * before counts were kept.
 */
const MAX_KEPT_CALLERS = 256

/** A route's prepared counts: by client address, and by caller and major id. */
interface RouteCounts<Count> {
  readonly byAddress: (address: string | undefined) => Count
  readonly byCaller: (caller: Caller, majorId: string | undefined) => Count
}

/**
 * This request's prepared count: by its client address alone when that is all it is counted by
 * (before the address's groups are worked out), else by its caller (a known token, or the address's
 * group) and its major id.
 */
const preparedOf = <Count>(
  counts: RouteCounts<Count>,
  request: HttpServerRequest.HttpServerRequest,
  byAddressOnly: boolean,
  majorId: string | undefined,
  known: KnownTokens["Service"],
  nowMs: number
): Count => {
  if (!byAddressOnly) return counts.byCaller(byKnownToken(request, known, nowMs), majorId)
  if (majorId === undefined) return counts.byAddress(Option.getOrUndefined(request.remoteAddress))
  return counts.byCaller(byAddress(request), majorId)
}

/** The 429 a refused count answers (its headers are the limiter's). */
export const refusal = (limited: RouteLimiter.RouteRateLimited): RateLimited =>
  unstacked(() => new RateLimited({ retry_after: limited.retryAfterMs / 1000, global: limited.global }))

type Answer = Effect.Effect<
  HttpServerResponse.HttpServerResponse,
  Types.unhandled | RateLimited,
  HttpServerRequest.HttpServerRequest
>

/**
 * Applied once per endpoint when the routes are built: its bucket's route name and whether it takes
 * credentials are settled then, not on each request.
 */
export const layer: Layer.Layer<RateLimit.RateLimit, never, RouteLimiter.RouteLimiter | KnownTokens> = Layer.effect(
  RateLimit.RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RouteLimiter.RouteLimiter
    const known = yield* KnownTokens
    const prepareSync = limiter.prepareSync
    return RateLimit.RateLimit.of((httpEffect, { endpoint, group }) => {
      const route = `${group.identifier}.${endpoint.identifier}`
      // Routes without credentials never look at the header: address only. A group declares
      // `Authorization` once, and HttpApi sets it on each of the group's endpoints.
      const takesCredentials = endpoint.middlewares.has(Authorization.Authorization)
      const answer = (
        context: Context.Context<never>,
        request: HttpServerRequest.HttpServerRequest,
        outcome: Result.Result<Record<string, string>, RouteLimiter.RouteRateLimited>
      ): Answer => {
        if (outcome._tag === "Failure") {
          setHeadersOnAnswer(context, request, outcome.failure.headers)
          return Effect.fail(refusal(outcome.failure))
        }
        // No headers (limits off, store unreachable): no handler. A key test without `Object.keys`' array.
        for (const _ in outcome.success) {
          setHeadersOnAnswer(context, request, outcome.success)
          break
        }
        return httpEffect
      }
      // A caller's count on this route, prepared once: answered at once by this process's counters,
      // else an Effect run again for each of its requests (Redis; through effect's RateLimiter store
      // `prepare` is `check`, so there the maps spare nothing). A client address without a major id
      // (most unauthenticated calls) is kept by the address itself, before its groups are worked out.
      const countsOf = <Count>(prepare: (request: RouteLimiter.Request) => Count): RouteCounts<Count> => ({
        byAddress: preparedCounts(prepare, route, MAX_KEPT_CALLERS),
        byCaller: preparedCallerCounts(prepare, route, MAX_KEPT_CALLERS)
      })
      const counting =
        prepareSync === undefined
          ? ({ sync: false, counts: countsOf(limiter.prepare) } as const)
          : ({ sync: true, counts: countsOf(prepareSync) } as const)
      const answerChecked =
        (context: Context.Context<never>, request: HttpServerRequest.HttpServerRequest) =>
        (outcome: Result.Result<Record<string, string>, RouteLimiter.RouteRateLimited>) =>
          answer(context, request, outcome)
      return Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        const params = Context.getUnsafe(fiber.context, HttpRouter.RouteContext).params
        const clock = fiber.getRef(Clock.Clock)
        // Only a route that takes credentials reads the headers: the first read of effect's view of
        // them copies every header of the request. With CORS on the edge reads them too, on its own
        // view of the request, which does not spare the route's (bench/limiter-micro.ts).
        const byAddressOnly = !takesCredentials || !hasAuthorization(request)
        const majorId = majorIdOf(params)
        // Read once: the count's time (this process's counters) and whether a token authenticated lately.
        const nowMs = clock.currentTimeMillisUnsafe()
        if (counting.sync) {
          const count = preparedOf(counting.counts, request, byAddressOnly, majorId, known, nowMs)
          return answer(fiber.context, request, count(nowMs))
        }
        const check = preparedOf(counting.counts, request, byAddressOnly, majorId, known, nowMs)
        return Effect.flatMap(Effect.result(check), answerChecked(fiber.context, request))
      })
    })
  })
)
