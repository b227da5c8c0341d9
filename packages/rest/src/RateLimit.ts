/**
 * The rate-limit middleware: every API route counts against the caller's global limit and its
 * route's bucket before anything else runs (authentication included, so guessing tokens is limited
 * too), and every answer carries the headers bot libraries schedule by. Callers are keyed by a
 * digest of their Authorization header (never the token itself: counters may live in Redis), or by
 * client address without one.
 */

import { createHash } from "node:crypto"
import { RateLimited, unstacked } from "@veche/errors"
import { RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Effect, Layer, Option } from "effect"
import { HttpEffect, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiMiddleware } from "effect/http-api"

export class RateLimit extends HttpApiMiddleware.Service<RateLimit>()("@veche/rest/RateLimit", {
  error: RateLimited
}) {}

const callerOf = (request: HttpServerRequest.HttpServerRequest): string => {
  const authorization = request.headers.authorization
  if (authorization !== undefined && authorization !== "") {
    return `t:${createHash("sha256").update(authorization).digest("base64url").slice(0, 32)}`
  }
  return `a:${Option.getOrElse(request.remoteAddress, () => "unknown")}`
}

const majorIdOf = (params: Readonly<Record<string, string | undefined>>): string | undefined => {
  for (const name of RouteBuckets.MAJOR_PARAMETERS) {
    const value = params[name]
    if (value !== undefined) return value
  }
  return undefined
}

// Set on the final response, whatever it is: a success, a declared error or the 429 itself.
const withHeaders = (headers: Record<string, string>) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, headers))
  )

export const layer: Layer.Layer<RateLimit, never, RouteLimiter.RouteLimiter> = Layer.effect(
  RateLimit,
  Effect.gen(function* () {
    const limiter = yield* RouteLimiter.RouteLimiter
    return RateLimit.of((httpEffect, { endpoint, group }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = yield* HttpRouter.params
        const outcome = yield* Effect.result(
          limiter.check({
            route: `${group.identifier}.${endpoint.identifier}`,
            majorId: majorIdOf(params),
            caller: callerOf(request)
          })
        )
        if (outcome._tag === "Failure") {
          const limited = outcome.failure
          yield* withHeaders(limited.headers)
          return yield* unstacked(
            () => new RateLimited({ retry_after: limited.retryAfterMs / 1000, global: limited.global })
          )
        }
        if (Object.keys(outcome.success).length > 0) yield* withHeaders(outcome.success)
        return yield* httpEffect
      })
    )
  })
)
