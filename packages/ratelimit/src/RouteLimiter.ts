/**
 * Counts a request against the global limit and its route's bucket, and says which headers the
 * answer carries. Ordinary route limits fail open: if the counter store is unreachable the request
 * goes through and the outage is logged (quotas that guard SMS and e-mail fail closed instead).
 *
 * Two layers, one behaviour: `layer` counts through effect's RateLimiter (Redis, so several nodes
 * share one limit), `layerInProcess` counts in this process in one synchronous step (one node).
 */
import { unstacked } from "@veche/errors"
import { Clock, Context, Duration, Effect, Layer, Schema } from "effect"
import { RateLimiter } from "effect/persistence"
import * as BucketId from "./BucketId.ts"
import * as RateLimitHeaders from "./RateLimitHeaders.ts"
import { type Bucket, bucketOf, RouteBuckets } from "./RouteBuckets.ts"
import * as WindowCounters from "./WindowCounters.ts"

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

const NO_HEADERS: Record<string, string> = {}

/** The keys and answers of one request, whichever layer counts it. */
const planOf = (config: RouteBuckets["Service"], request: Request) => {
  const { name, bucket } = bucketOf(config, request.route)
  const bucketId = BucketId.of(name)
  const scope: RateLimitHeaders.Scope = bucket.shared === true ? "shared" : "user"
  return {
    globalKey: `g:${request.caller}`,
    bucketKey: `b:${name}:${request.majorId ?? "-"}:${bucket.shared === true ? "*" : request.caller}`,
    bucket,
    refuseGlobal: (retryAfterMs: number) =>
      unstacked(
        () =>
          new RouteRateLimited({
            retryAfterMs,
            global: true,
            headers: RateLimitHeaders.exceeded({ retryAfterMs, scope: "global" })
          })
      ),
    refuseBucket: (retryAfterMs: number, nowMs: number) =>
      unstacked(
        () =>
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
      ),
    headers: (remaining: number, resetAfterMs: number, nowMs: number) =>
      RateLimitHeaders.bucket({ bucketId, limit: bucket.limit, remaining, resetAfterMs, nowMs })
  }
}

export class RouteLimiter extends Context.Service<
  RouteLimiter,
  { readonly check: (request: Request) => Effect.Effect<Record<string, string>, RouteRateLimited> }
>()("@veche/ratelimit/RouteLimiter") {
  /** Counters in effect's RateLimiter store: Redis for several nodes (or its memory store). */
  static readonly layer: Layer.Layer<RouteLimiter, never, RouteBuckets | RateLimiter.RateLimiter> = Layer.effect(
    RouteLimiter,
    Effect.gen(function* () {
      const config = yield* RouteBuckets
      const limiter = yield* RateLimiter.RateLimiter

      // A refusal becomes the 429 with its headers; an unreachable store lets the request through
      // (logged): `null` then means "no headers".
      const consume = (key: string, bucket: Bucket, refuse: (retryAfterMs: number) => RouteRateLimited) =>
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
        if (!config.enabled) return NO_HEADERS
        const plan = planOf(config, request)
        const global = yield* consume(plan.globalKey, config.global, plan.refuseGlobal)
        if (global === null) return NO_HEADERS
        const nowMs = yield* Clock.currentTimeMillis
        const result = yield* consume(plan.bucketKey, plan.bucket, (retryAfterMs) =>
          plan.refuseBucket(retryAfterMs, nowMs)
        )
        if (result === null) return NO_HEADERS
        return plan.headers(result.remaining, Duration.toMillis(result.resetAfter), nowMs)
      })

      return RouteLimiter.of({ check })
    })
  )

  /**
   * Counters in this process (one node), counted as `layer` counts them, in one synchronous step
   * per request rather than two trips through a store: this runs before every route.
   */
  static readonly layerInProcess: Layer.Layer<RouteLimiter, never, RouteBuckets> = Layer.effect(
    RouteLimiter,
    Effect.gen(function* () {
      const config = yield* RouteBuckets
      const counters = WindowCounters.make()

      const decide = (request: Request, nowMs: number): Effect.Effect<Record<string, string>, RouteRateLimited> => {
        const plan = planOf(config, request)
        const global = counters.count(plan.globalKey, config.global.limit, config.global.windowMs, nowMs)
        if (!global.allowed) return Effect.fail(plan.refuseGlobal(global.resetAfterMs))
        const bucket = counters.count(plan.bucketKey, plan.bucket.limit, plan.bucket.windowMs, nowMs)
        if (!bucket.allowed) return Effect.fail(plan.refuseBucket(bucket.resetAfterMs, nowMs))
        return Effect.succeed(plan.headers(plan.bucket.limit - bucket.count, bucket.resetAfterMs, nowMs))
      }

      return RouteLimiter.of({
        check: (request) =>
          config.enabled
            ? Effect.clockWith((clock) => decide(request, clock.currentTimeMillisUnsafe()))
            : Effect.succeed(NO_HEADERS)
      })
    })
  )
}
