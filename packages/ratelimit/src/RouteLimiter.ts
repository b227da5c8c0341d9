/**
 * Counts a request against the global limit and its route's bucket, and says which headers the
 * answer carries. Ordinary route limits fail open: if the counter store is unreachable the request
 * goes through and the outage is logged (quotas that guard SMS and e-mail fail closed instead).
 */
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { RateLimiter } from "effect/persistence"
import * as BucketId from "./BucketId.ts"
import * as RateLimitHeaders from "./RateLimitHeaders.ts"
import { bucketOf, RouteBuckets } from "./RouteBuckets.ts"

/** A limit was hit: answer 429 with these headers and body. */
export class RouteRateLimited extends Schema.TaggedError<RouteRateLimited>()("RouteRateLimited", {
  retryAfterMs: Schema.Number,
  global: Schema.Boolean,
  headers: Schema.Record(Schema.String, Schema.String)
}) {}

export interface Request {
  /** `group.endpoint` of the HttpApi route. */
  readonly route: string
  /** The top-level resource id in the path (guild, channel, webhook), if any. */
  readonly majorId: string | undefined
  /** Who is asking: a digest of the token, or the client address without one. */
  readonly caller: string
}

export class RouteLimiter extends Context.Service<
  RouteLimiter,
  { readonly check: (request: Request) => Effect.Effect<Record<string, string>, RouteRateLimited> }
>()("@veche/ratelimit/RouteLimiter") {
  static readonly layer: Layer.Layer<RouteLimiter, never, RouteBuckets | RateLimiter.RateLimiter> = Layer.effect(
    RouteLimiter,
    Effect.gen(function* () {
      const config = yield* RouteBuckets
      const limiter = yield* RateLimiter.RateLimiter
      const noHeaders: Record<string, string> = {}

      // A refusal becomes the 429 with its headers; an unreachable store lets the request through
      // (logged): `null` then means "no headers".
      const consume = (
        key: string,
        bucket: { readonly limit: number; readonly windowMs: number },
        refuse: (retryAfterMs: number) => RouteRateLimited
      ) =>
        limiter.consume({ key, limit: bucket.limit, window: Duration.millis(bucket.windowMs) }).pipe(
          Effect.catchReason("RateLimiterError", "RateLimitExceeded", (e) =>
            Effect.fail(refuse(Duration.toMillis(e.retryAfter)))
          ),
          Effect.catchTag("RateLimiterError", (error) =>
            Effect.as(
              Effect.logWarning("rate-limit store unavailable; letting the request through", error.reason),
              null
            )
          )
        )

      const check = Effect.fnUntraced(function* (request: Request) {
        if (!config.enabled) return noHeaders
        const global = yield* consume(
          `g:${request.caller}`,
          config.global,
          (retryAfterMs) =>
            new RouteRateLimited({
              retryAfterMs,
              global: true,
              headers: RateLimitHeaders.exceeded({ retryAfterMs, scope: "global" })
            })
        )
        if (global === null) return noHeaders

        const { name, bucket } = bucketOf(config, request.route)
        const bucketId = BucketId.of(name)
        const key = `b:${name}:${request.majorId ?? "-"}:${bucket.shared === true ? "*" : request.caller}`
        const scope: RateLimitHeaders.Scope = bucket.shared === true ? "shared" : "user"
        const nowMs = yield* Clock.currentTimeMillis
        const result = yield* consume(
          key,
          bucket,
          (retryAfterMs) =>
            new RouteRateLimited({
              retryAfterMs,
              global: false,
              headers: {
                ...RateLimitHeaders.bucket({
                  bucketId,
                  limit: bucket.limit,
                  remaining: 0,
                  resetAfterMs: retryAfterMs,
                  nowMs
                }),
                ...RateLimitHeaders.exceeded({ retryAfterMs, scope })
              }
            })
        )
        if (result === null) return noHeaders
        return RateLimitHeaders.bucket({
          bucketId,
          limit: result.limit,
          remaining: result.remaining,
          resetAfterMs: Duration.toMillis(result.resetAfter),
          nowMs
        })
      })

      return RouteLimiter.of({ check })
    })
  )
}
