/**
 * Which bucket each route counts against, and how big the buckets are: one readable table. Routes
 * that share a bucket name share its counter (and report the same `X-RateLimit-Bucket`). A bucket
 * is further split by the top-level resource id in the path (guild, channel, webhook), as on the
 * mirrored platform, and per caller unless it is `shared` (one counter for everyone on that resource).
 *
 * Operators override sizes with `SERVICE_RATE_LIMITS` (JSON: `{"gateway": {"limit": 10, "windowMs": 5000}}`)
 * and the global limit with `SERVICE_GLOBAL_RATE_LIMIT` (requests per second per caller).
 */
import { Config, Context, Effect, Layer, Schema } from "effect"

export interface Bucket {
  readonly limit: number
  readonly windowMs: number
  /** One counter per resource for all callers (answers scope `shared`), instead of one per caller. */
  readonly shared?: boolean | undefined
}

/** Bucket sizes by name. `default` covers every route the route table does not name. */
export const DEFAULT_BUCKETS: Readonly<Record<string, Bucket>> = {
  default: { limit: 50, windowMs: 10_000 },
  version: { limit: 60, windowMs: 60_000 },
  gateway: { limit: 30, windowMs: 60_000 },
  // Per user: each miss costs a call to the GIF provider, whose key has a rate limit of its own.
  gifs: { limit: 20, windowMs: 10_000 }
}

/** Routes (`group.endpoint` of the HttpApi) to bucket names. */
export const DEFAULT_ROUTES: Readonly<Record<string, string>> = {
  "service.version": "version",
  "service.gateway": "gateway",
  "botGateway.gatewayBot": "gateway",
  "gifs.gifTrending": "gifs",
  "gifs.gifSearch": "gifs",
  "gifs.gifCategories": "gifs"
}

/** The mirrored platform's global limit: 50 requests per second per token (or per address). */
export const DEFAULT_GLOBAL: Bucket = { limit: 50, windowMs: 1_000 }

/** Path parameters that partition a bucket, in the platform's order of precedence. */
export const MAJOR_PARAMETERS = ["guild_id", "channel_id", "webhook_id"] as const

export class RouteBuckets extends Context.Service<
  RouteBuckets,
  {
    readonly enabled: boolean
    readonly global: Bucket
    readonly buckets: Readonly<Record<string, Bucket>>
    readonly routes: Readonly<Record<string, string>>
  }
>()("@veche/ratelimit/RouteBuckets") {
  static readonly layer = (
    options: {
      readonly enabled?: boolean | undefined
      readonly global?: Bucket | undefined
      readonly buckets?: Readonly<Record<string, Bucket>> | undefined
      readonly routes?: Readonly<Record<string, string>> | undefined
    } = {}
  ): Layer.Layer<RouteBuckets> =>
    Layer.succeed(
      RouteBuckets,
      RouteBuckets.of({
        enabled: options.enabled ?? true,
        global: options.global ?? DEFAULT_GLOBAL,
        buckets: { ...DEFAULT_BUCKETS, ...options.buckets },
        routes: { ...DEFAULT_ROUTES, ...options.routes }
      })
    )

  /** `SERVICE_RATE_LIMITS_ENABLED` (true), `SERVICE_RATE_LIMITS` (JSON), `SERVICE_GLOBAL_RATE_LIMIT` (50). */
  static readonly layerConfig: Layer.Layer<RouteBuckets, Config.ConfigError> = Layer.unwrap(
    Effect.gen(function* () {
      const enabled = yield* Config.Boolean("SERVICE_RATE_LIMITS_ENABLED").pipe(Config.withDefault(true))
      const buckets = yield* Config.schema(Schema.fromJsonString(BucketOverrides), "SERVICE_RATE_LIMITS").pipe(
        Config.withDefault({})
      )
      const perSecond = yield* Config.schema(PositiveIntFromString, "SERVICE_GLOBAL_RATE_LIMIT").pipe(
        Config.withDefault(DEFAULT_GLOBAL.limit)
      )
      return RouteBuckets.layer({ enabled, buckets, global: { limit: perSecond, windowMs: 1_000 } })
    })
  )
}

const PositiveInt = Schema.Int.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(1)))
const PositiveIntFromString = Schema.NumberFromString.pipe(Schema.decodeTo(PositiveInt))

const BucketOverrides = Schema.Record(
  Schema.String,
  Schema.Struct({ limit: PositiveInt, windowMs: PositiveInt, shared: Schema.optionalKey(Schema.Boolean) })
)

/** The bucket a route counts against. */
export const bucketOf = (
  config: RouteBuckets["Service"],
  route: string
): { readonly name: string; readonly bucket: Bucket } => {
  const name = config.routes[route] ?? "default"
  return { name, bucket: config.buckets[name] ?? config.buckets.default ?? DEFAULT_GLOBAL }
}
