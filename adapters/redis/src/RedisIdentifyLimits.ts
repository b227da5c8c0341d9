/**
 * The gateway's identify limits in Redis, shared by every node: a bot's day is a counter
 * (`INCR`, expiring a day after its first start: `remaining` and `reset_after` read from it), and
 * each `max_concurrency` bucket a key set for 5 s (`SET NX PX`); the check, the bucket and the count
 * are one script, so two starts at the end of a day cannot both pass and a crash between INCR and
 * PEXPIRE cannot leave a day that never ends.
 * A user's identifies: a 5-second window and a day, both counted in one script for the same reasons.
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { IdentifyLimits } from "@veche/gateway"
import { Effect, Layer, Redacted } from "effect"
import { Redis } from "effect/persistence"

export interface Options {
  readonly url: Redacted.Redacted<string>
  readonly limits?: IdentifyLimits.Limits
  readonly userLimits?: IdentifyLimits.UserLimits | undefined
  /** Where the keys start (default `veche:identify:`). */
  readonly prefix?: string
}

/**
 * A user's start: 0 the day is used up, 1 past the burst window, 2 started and counted. Each window
 * starts (with its expiry) at its first count.
 */
const START_USER = `
local day = tonumber(redis.call('GET', KEYS[1]) or '0')
if day >= tonumber(ARGV[1]) then return 0 end
local burst = redis.call('INCR', KEYS[2])
if burst == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[3]) end
if burst > tonumber(ARGV[2]) then return 1 end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return 2
`

/** A bot's start: 0 the day is used up, 1 the concurrency bucket is taken, 2 started and counted. */
const START_BOT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then return 0 end
if not redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 2
`

const asNumber = (value: unknown): number => (typeof value === "number" ? value : Number(value ?? 0)) || 0

export const layer = (options: Options): Layer.Layer<IdentifyLimits.IdentifyLimits, Redis.RedisError> =>
  Layer.effect(
    IdentifyLimits.IdentifyLimits,
    Effect.gen(function* () {
      const redis = yield* Redis.Redis
      const limits = options.limits ?? IdentifyLimits.DEFAULT_LIMITS
      const prefix = options.prefix ?? "veche:identify:"
      const userLimits = options.userLimits ?? IdentifyLimits.DEFAULT_USER_LIMITS
      const dayKey = (botId: string) => `${prefix}day:${botId}`
      // Redis down: no session starts (op 9, the client retries), rather than an unlimited budget.
      const orBusy = <A>(effect: Effect.Effect<A, Redis.RedisError>, busy: A) =>
        effect.pipe(
          Effect.catch((error) => Effect.as(Effect.logWarning("gateway identify limits: Redis failed", error), busy))
        )
      return IdentifyLimits.IdentifyLimits.of({
        start: (botId, shardId) =>
          orBusy(
            Effect.gen(function* () {
              const bucket = `${prefix}bucket:${botId}:${shardId % limits.maxConcurrency}`
              const outcome = asNumber(
                yield* redis.send(
                  "EVAL",
                  START_BOT,
                  "2",
                  dayKey(botId),
                  bucket,
                  String(limits.total),
                  String(IdentifyLimits.BUCKET_MS),
                  String(IdentifyLimits.DAY_MS)
                )
              )
              if (outcome === 0) return "DailyLimitReached" as const
              if (outcome === 1) return "BucketBusy" as const
              return "Started" as const
            }),
            "BucketBusy" as const
          ),
        startUser: (userId) =>
          orBusy(
            Effect.map(
              redis.send(
                "EVAL",
                START_USER,
                "2",
                `${prefix}user-day:${userId}`,
                `${prefix}user-burst:${userId}`,
                String(userLimits.total),
                String(userLimits.burst),
                String(IdentifyLimits.BUCKET_MS),
                String(IdentifyLimits.DAY_MS)
              ),
              (outcome) => {
                const code = asNumber(outcome)
                return code === 0
                  ? ("DailyLimitReached" as const)
                  : code === 1
                    ? ("BucketBusy" as const)
                    : ("Started" as const)
              }
            ),
            "BucketBusy" as const
          ),
        budget: (botId) =>
          orBusy(
            Effect.gen(function* () {
              const count = asNumber(yield* redis.send("GET", dayKey(botId)))
              const ttl = asNumber(yield* redis.send("PTTL", dayKey(botId)))
              return {
                total: limits.total,
                remaining: Math.max(0, limits.total - count),
                reset_after: Math.max(0, ttl),
                max_concurrency: limits.maxConcurrency
              }
            }),
            { total: limits.total, remaining: 0, reset_after: 0, max_concurrency: limits.maxConcurrency }
          )
      })
    })
  ).pipe(Layer.provide(NodeRedis.layer({ url: Redacted.value(options.url) })))
