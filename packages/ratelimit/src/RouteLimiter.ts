/**
 * Counts a request against the global limit and its route's bucket, and says which headers the
 * answer carries. Ordinary route limits fail open: if the counter store is unreachable the request
 * goes through and the outage is logged (quotas that guard SMS and e-mail fail closed instead).
 *
 * Three layers, one behaviour: `layer` counts through effect's RateLimiter store (two calls a
 * request), `layerRedis` counts in Redis, one script call for the requests of an event-loop turn (several nodes share one
 * limit), `layerInProcess` counts in this process in one synchronous step (one node).
 */
import { unstacked } from "@veche/errors"
import { Clock, Context, Duration, Effect, Layer, Result, Schema } from "effect"
import { RateLimiter } from "effect/persistence"
import { NETWORK_FACTOR } from "./AddressGroups.ts"
import * as BucketId from "./BucketId.ts"
import * as RateLimitHeaders from "./RateLimitHeaders.ts"
import * as RateLimitStore from "./RateLimitStore.ts"
import { type Bucket, bucketOf, RouteBuckets } from "./RouteBuckets.ts"
import * as RouteCountBatch from "./RouteCountBatch.ts"
import { RouteCountConnection } from "./RouteCountConnection.ts"
import * as RouteCountScript from "./RouteCountScript.ts"
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
  /** Who is asking: a digest of an authenticated token, or the client's address group (`AddressGroups`). */
  readonly caller: string
  /**
   * The caller's wider network (an IPv6 /48), counted against `NETWORK_FACTOR` times the global
   * limit: many /64s of one site share it. Absent for tokens and IPv4.
   */
  readonly network?: string | undefined
}

const NO_HEADERS: Record<string, string> = {}

/**
 * The keys of one request, whichever layer counts it. Data only: it is built on every request, and
 * the answers below are plain functions of it rather than closures made per request.
 */
const planOf = (config: RouteBuckets["Service"], request: Request) => {
  const { name, bucket } = bucketOf(config, request.route)
  return {
    globalKey: `g:${request.caller}`,
    networkKey: request.network === undefined ? undefined : `n:${request.network}`,
    bucketKey: `b:${name}:${request.majorId ?? "-"}:${bucket.shared === true ? "*" : request.caller}`,
    bucket,
    bucketId: BucketId.of(name)
  }
}

type Plan = ReturnType<typeof planOf>

type BucketHeaders = ReturnType<typeof RateLimitHeaders.bucketFor>

/** A count's answer: the headers of a request let through, or its refusal. */
export type Outcome = Result.Result<Record<string, string>, RouteRateLimited>

const refuseGlobal = (retryAfterMs: number) =>
  unstacked(
    () =>
      new RouteRateLimited({
        retryAfterMs,
        global: true,
        headers: RateLimitHeaders.exceeded({ retryAfterMs, scope: "global" })
      })
  )

const refuseBucket = (plan: Plan, retryAfterMs: number, nowMs: number) =>
  unstacked(
    () =>
      new RouteRateLimited({
        retryAfterMs,
        global: false,
        headers: {
          ...RateLimitHeaders.bucket({
            bucketId: plan.bucketId,
            limit: plan.bucket.limit,
            remaining: 0,
            resetAfterMs: retryAfterMs,
            nowMs
          }),
          ...RateLimitHeaders.exceeded({ retryAfterMs, scope: plan.bucket.shared === true ? "shared" : "user" })
        }
      })
  )

const headersOf = (plan: Plan, remaining: number, resetAfterMs: number, nowMs: number) =>
  RateLimitHeaders.bucket({ bucketId: plan.bucketId, limit: plan.bucket.limit, remaining, resetAfterMs, nowMs })

/** The limit of a network (/48) counter: the global limit's window, `NETWORK_FACTOR` times its count. */
const networkBucket = (global: Bucket): Bucket => ({ limit: global.limit * NETWORK_FACTOR, windowMs: global.windowMs })

/** The answer once the bucket has been stepped: `count` with this request, refused past the limit. */
const bucketOutcome = (plan: Plan, count: number, resetAfterMs: number, nowMs: number): Outcome =>
  count > plan.bucket.limit
    ? Result.fail(refuseBucket(plan, resetAfterMs, nowMs))
    : Result.succeed(headersOf(plan, plan.bucket.limit - count, resetAfterMs, nowMs))

/**
 * The most requests `layerRedis` counts in one script call: a full batch is sent at once, so a
 * burst neither grows one command without bound nor holds Redis in one script for long.
 */
export const MAX_BATCH = 128

/** Limits off: nothing counted, no headers. */
const NOTHING_COUNTED: Outcome = Result.succeed(NO_HEADERS)
const uncounted = (): Outcome => NOTHING_COUNTED
const prepareUncounted = () => uncounted

export class RouteLimiter extends Context.Service<
  RouteLimiter,
  {
    readonly check: (request: Request) => Effect.Effect<Record<string, string>, RouteRateLimited>
    /**
     * The same count in one synchronous call at `nowMs` when it needs no I/O (this process's
     * counters, or limits off), else undefined. It runs before every route, where each Effect step
     * it spares is a few allocations per request.
     */
    readonly checkSync: ((request: Request, nowMs: number) => Outcome) | undefined
    /**
     * `checkSync` for one request's caller and route, its keys built once, for a caller that keeps
     * it: the edge's compiled answers and the rate-limit middleware keep one per client address, and
     * the middleware one per caller and major id too, since they count the same clients again and
     * again (the keys' strings are then built and hashed once, not per request). Undefined where
     * `checkSync` is.
     */
    readonly prepareSync: ((request: Request) => (nowMs: number) => Outcome) | undefined
    /**
     * `check` for one request's caller and route, its keys and header texts built once: the Effect
     * answered is run again for each request of that caller on that route (the rate-limit
     * middleware keeps them as it keeps `prepareSync`'s). It is what makes
     * counting in Redis cost the same per request as `checkSync` does for the keys.
     */
    readonly prepare: (request: Request) => Effect.Effect<Record<string, string>, RouteRateLimited>
  }
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
        const global = yield* consume(plan.globalKey, config.global, refuseGlobal)
        if (global === null) return NO_HEADERS
        if (plan.networkKey !== undefined) {
          const network = yield* consume(plan.networkKey, networkBucket(config.global), refuseGlobal)
          if (network === null) return NO_HEADERS
        }
        const nowMs = yield* Clock.currentTimeMillis
        const result = yield* consume(plan.bucketKey, plan.bucket, (retryAfterMs) =>
          refuseBucket(plan, retryAfterMs, nowMs)
        )
        if (result === null) return NO_HEADERS
        return headersOf(plan, result.remaining, Duration.toMillis(result.resetAfter), nowMs)
      })

      return RouteLimiter.of({
        check,
        checkSync: config.enabled ? undefined : uncounted,
        prepareSync: config.enabled ? undefined : prepareUncounted,
        prepare: check
      })
    })
  )

  /**
   * Counters in Redis: the keys and counts of `layer` over effect's Redis store (same `prefix`), so
   * nodes on either path share them, in one script call for all the requests of an event-loop turn
   * (`RouteCountScript.batchLua`; `RouteCountBatch` sends each key and each prepared count once
   * however many requests repeat it). Each request's counts are queued; the first of a turn schedules
   * the call (`setImmediate`, after the turn's I/O callbacks), which steps the queued requests in
   * order inside Redis, each as one `RouteCountScript.lua` call would, and answers each its own
   * result. A batch holds at most `MAX_BATCH` requests; a full one is sent at once. A failed call
   * (Redis unreachable, the connection's deadline passed) reaches every request of its batch, each
   * let through and logged as one request's count was. The script is run by its SHA (`EVALSHA`),
   * loaded again when Redis answers NOSCRIPT (restarted, `SCRIPT FLUSH`).
   */
  static readonly layerRedis = (
    options: { readonly prefix?: string } = {}
  ): Layer.Layer<RouteLimiter, never, RouteBuckets | RouteCountConnection> =>
    Layer.effect(
      RouteLimiter,
      Effect.gen(function* () {
        const config = yield* RouteBuckets
        const connection = yield* RouteCountConnection
        const prefix = options.prefix ?? RateLimitStore.DEFAULT_PREFIX
        const network = networkBucket(config.global)
        const fixedArgs = [...RouteCountScript.argsOf(config.global), ...RouteCountScript.argsOf(network)]
        const bucketArgs = new Map<Bucket, readonly [string, string]>()
        const argsOfBucket = (bucket: Bucket) => {
          let args = bucketArgs.get(bucket)
          if (args === undefined) {
            args = RouteCountScript.argsOf(bucket)
            bucketArgs.set(bucket, args)
          }
          return args
        }

        let sha: string | undefined
        const LOAD = ["SCRIPT", "LOAD", RouteCountScript.batchLua] as const
        /** Loads the script, then calls `then` with its SHA (or `onFailure`). */
        const load = (then: (loaded: string) => void, onFailure: (cause: unknown) => void) =>
          connection.send(
            LOAD,
            (loaded) => {
              sha = String(loaded)
              then(sha)
            },
            onFailure
          )

        // An unreachable store lets the request through, logged (ordinary route limits fail open).
        const unavailable = (cause: unknown) =>
          Effect.as(Effect.logWarning("rate-limit store unavailable; letting the request through", cause), NO_HEADERS)

        /**
         * One request's counting, as the batch needs it: its plan, its keys (prefixed) and its
         * arguments, and the texts of its headers when it is prepared (`prepare`: kept from one
         * answer to the next), else built per answer.
         */
        interface Counting extends RouteCountBatch.Counting {
          readonly plan: Plan
          readonly headers: BucketHeaders | undefined
        }
        const countingOf = (request: Request, prepared: boolean): Counting => {
          const plan = planOf(config, request)
          return {
            plan,
            keys:
              plan.networkKey === undefined
                ? [`${prefix}${plan.globalKey}`, `${prefix}${plan.bucketKey}`]
                : [`${prefix}${plan.globalKey}`, `${prefix}${plan.bucketKey}`, `${prefix}${plan.networkKey}`],
            bucketArgs: argsOfBucket(plan.bucket),
            headers: prepared
              ? RateLimitHeaders.bucketFor({ bucketId: plan.bucketId, limit: plan.bucket.limit })
              : undefined
          }
        }

        const answerOf = (
          counting: Counting,
          stage: number,
          count: number,
          ttlMs: number,
          nowMs: number
        ): Effect.Effect<Record<string, string>, RouteRateLimited> => {
          if (stage === RouteCountScript.GLOBAL_REFUSED) return Effect.fail(refuseGlobal(ttlMs))
          const { plan, headers } = counting
          if (headers === undefined || count > plan.bucket.limit)
            return Effect.fromResult(bucketOutcome(plan, count, ttlMs, nowMs))
          return Effect.succeed(headers(plan.bucket.limit - count, ttlMs, nowMs))
        }

        /** A queued request: its counting, its fiber's clock (read when answered) and its fiber's resume. */
        interface Waiting {
          readonly counting: Counting
          readonly clock: Clock.Clock
          readonly resume: (effect: Effect.Effect<Record<string, string>, RouteRateLimited>) => void
        }

        // The batch being gathered: the requests, and the script's arguments for them.
        let waiting: Array<Waiting> = []
        let gathered = RouteCountBatch.make()
        let scheduled = false

        const send = (batch: ReadonlyArray<Waiting>, command: Array<string>) => {
          const answer = (reply: unknown) => {
            if (!Array.isArray(reply) || reply.length !== batch.length * 3) {
              failed(new Error(`unexpected route-count reply for ${batch.length} requests`))
              return
            }
            for (let i = 0; i < batch.length; i++) {
              const request = batch[i] as Waiting
              request.resume(
                answerOf(
                  request.counting,
                  reply[i * 3] as number,
                  reply[i * 3 + 1] as number,
                  reply[i * 3 + 2] as number,
                  request.clock.currentTimeMillisUnsafe()
                )
              )
            }
          }
          const failed = (cause: unknown) => {
            for (const request of batch) request.resume(unavailable(cause))
          }
          const run = (loaded: string, onFailure: (cause: unknown) => void) => {
            command[1] = loaded
            connection.send(command, answer, onFailure)
          }
          const reloaded = () => load((loaded) => run(loaded, failed), failed)
          if (sha === undefined) reloaded()
          else run(sha, (cause) => (String(cause).includes("NOSCRIPT") ? reloaded() : failed(cause)))
        }

        /** Sends the gathered batch, if any, and starts a new one. */
        const flush = () => {
          if (waiting.length === 0) return
          const batch = waiting
          const command = gathered.command(fixedArgs)
          waiting = []
          gathered = RouteCountBatch.make()
          send(batch, command)
        }
        const flushScheduled = () => {
          scheduled = false
          flush()
        }

        /** Queues one request's counting in the batch being gathered, sent after this turn's I/O. */
        const enqueue = (
          counting: Counting,
          clock: Clock.Clock,
          resume: (effect: Effect.Effect<Record<string, string>, RouteRateLimited>) => void
        ) => {
          waiting.push({ counting, clock, resume })
          gathered.add(counting)
          if (waiting.length >= MAX_BATCH) flush()
          else if (!scheduled) {
            scheduled = true
            setImmediate(flushScheduled)
          }
        }
        const counted = (counting: Counting): Effect.Effect<Record<string, string>, RouteRateLimited> =>
          Effect.withFiber((fiber) => {
            const clock = fiber.getRef(Clock.Clock)
            return Effect.callback<Record<string, string>, RouteRateLimited>((resume) =>
              enqueue(counting, clock, resume)
            )
          })

        const limitsOff = Effect.succeed(NO_HEADERS)
        return RouteLimiter.of({
          check: (request) => (config.enabled ? counted(countingOf(request, false)) : limitsOff),
          checkSync: config.enabled ? undefined : uncounted,
          prepareSync: config.enabled ? undefined : prepareUncounted,
          prepare: (request) => (config.enabled ? counted(countingOf(request, true)) : limitsOff)
        })
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
      const network = networkBucket(config.global)

      /** One request's count; its headers by `headers` when it goes through (a prepared count's own). */
      const countPlanned = (plan: Plan, nowMs: number, headers?: BucketHeaders): Outcome => {
        const global = counters.count(plan.globalKey, config.global.limit, config.global.windowMs, nowMs)
        if (!global.allowed) return Result.fail(refuseGlobal(global.resetAfterMs))
        if (plan.networkKey !== undefined) {
          const wide = counters.count(plan.networkKey, network.limit, network.windowMs, nowMs)
          if (!wide.allowed) return Result.fail(refuseGlobal(wide.resetAfterMs))
        }
        const bucket = counters.count(plan.bucketKey, plan.bucket.limit, plan.bucket.windowMs, nowMs)
        if (headers === undefined || bucket.count > plan.bucket.limit)
          return bucketOutcome(plan, bucket.count, bucket.resetAfterMs, nowMs)
        return Result.succeed(headers(plan.bucket.limit - bucket.count, bucket.resetAfterMs, nowMs))
      }
      const checkSync = (request: Request, nowMs: number): Outcome => countPlanned(planOf(config, request), nowMs)

      const prepareSync = (request: Request) => {
        const plan = planOf(config, request)
        const headers = RateLimitHeaders.bucketFor({ bucketId: plan.bucketId, limit: plan.bucket.limit })
        return (nowMs: number) => countPlanned(plan, nowMs, headers)
      }
      const limitsOff = Effect.succeed(NO_HEADERS)
      return RouteLimiter.of({
        check: (request) =>
          config.enabled
            ? Effect.clockWith((clock) => Effect.fromResult(checkSync(request, clock.currentTimeMillisUnsafe())))
            : limitsOff,
        checkSync: config.enabled ? checkSync : uncounted,
        prepareSync: config.enabled ? prepareSync : prepareUncounted,
        prepare: (request) => {
          if (!config.enabled) return limitsOff
          const count = prepareSync(request)
          return Effect.clockWith((clock) => Effect.fromResult(count(clock.currentTimeMillisUnsafe())))
        }
      })
    })
  )
}
