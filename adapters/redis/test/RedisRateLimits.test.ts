/** The rate limiter on Redis: what several nodes share. Runs when REDIS_URL is set (CI sets it). */
import { describe, expect, it } from "@effect/vitest"
import { QuotaLimiter, RouteBuckets, RouteCountBatch, RouteCountConnection, RouteLimiter } from "@veche/ratelimit"
import * as RouteCountScript from "@veche/ratelimit/RouteCountScript"
import { Context, Effect, Layer, Redacted } from "effect"
import { Redis } from "effect/persistence"
import * as RedisRateLimits from "../src/RedisRateLimits.ts"

let callers = 0
const freshCaller = () => `t:test-${process.pid}-${Date.now()}-${++callers}`

const redisUrl = process.env.REDIS_URL

const options = () => ({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:` })

type LimiterOn = (
  buckets: Layer.Layer<RouteBuckets.RouteBuckets>
) => Layer.Layer<RouteLimiter.RouteLimiter, Redis.RedisError>

/** The two ways a node counts route limits in Redis: through effect's store, and in one script call. */
const viaStoreOn: LimiterOn = (buckets) =>
  RouteLimiter.RouteLimiter.layer.pipe(Layer.provide(buckets), Layer.provide(RedisRateLimits.layer(options())))
const viaScriptOn: LimiterOn = (buckets) =>
  RouteLimiter.RouteLimiter.layerRedis({ prefix: options().prefix }).pipe(
    Layer.provide(buckets),
    Layer.provide(RedisRateLimits.connection(options()))
  )
const onRedis: ReadonlyArray<readonly [string, LimiterOn]> = [
  ["effect's Redis store", viaStoreOn],
  ["one round trip", viaScriptOn]
]

const short = RouteBuckets.RouteBuckets.layer({
  buckets: { small: { limit: 3, windowMs: 600 } },
  routes: { "things.list": "small" }
})

/** `things.list` in bucket `small`: `global` and `small` requests a minute. */
const perMinute = (global: number, small: number) =>
  RouteBuckets.RouteBuckets.layer({
    global: { limit: global, windowMs: 60_000 },
    buckets: { small: { limit: small, windowMs: 60_000 } },
    routes: { "things.list": "small" }
  })

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RouteLimiter on Redis", () => {
  describe.each(onRedis)("(%s)", (_name, limiterOn) => {
    it.live("counts in Redis, refuses past the limit, and resets after the window", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter.RouteLimiter
        const caller = freshCaller()
        const call = limiter.check({ route: "things.list", majorId: "1", caller })
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
        yield* call
        yield* call
        const refused = yield* Effect.flip(call)
        expect(refused.global).toBe(false)
        expect(refused.headers["x-ratelimit-scope"]).toBe("user")
        expect(refused.headers["x-ratelimit-remaining"]).toBe("0")
        expect(refused.retryAfterMs).toBeGreaterThan(0)
        expect(refused.retryAfterMs).toBeLessThanOrEqual(600)
        yield* Effect.sleep(refused.retryAfterMs + 50)
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
      }).pipe(Effect.provide(limiterOn(short)))
    )

    it.live("counts a caller's network (/48) against eight times the global limit", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter.RouteLimiter
        const network = `a:net-${freshCaller()}`
        for (let i = 0; i < 8; i++) {
          const caller = freshCaller()
          for (let j = 0; j < 2; j++)
            yield* limiter.check({ route: "things.list", majorId: String(j), caller, network })
        }
        const refused = yield* Effect.flip(
          limiter.check({ route: "things.list", majorId: "1", caller: freshCaller(), network })
        )
        expect(refused.global).toBe(true)
        yield* limiter.check({ route: "things.list", majorId: "1", caller: freshCaller(), network: `${network}-2` })
      }).pipe(Effect.provide(limiterOn(perMinute(2, 5))))
    )

    it.live("refuses past the global limit without counting the route's bucket", () =>
      Effect.gen(function* () {
        const caller = freshCaller()
        const tight = perMinute(2, 5)
        const loose = perMinute(100, 5)
        const request = { route: "things.list", majorId: "1", caller }
        const refused = yield* Effect.gen(function* () {
          const limiter = yield* RouteLimiter.RouteLimiter
          yield* limiter.check(request)
          yield* limiter.check(request)
          return yield* Effect.flip(limiter.check(request))
        }).pipe(Effect.provide(limiterOn(tight)))
        expect(refused.global).toBe(true)
        // 60 s over 2 requests: each one pushed the global counter's expiry on by 30 s.
        expect(refused.headers).toEqual({
          "retry-after": "60",
          "x-ratelimit-scope": "global",
          "x-ratelimit-global": "true"
        })
        // The bucket counted the two requests the global limit let through, not the refused third.
        const next = yield* Effect.flatMap(RouteLimiter.RouteLimiter, (limiter) => limiter.check(request)).pipe(
          Effect.provide(limiterOn(loose))
        )
        expect(next["x-ratelimit-remaining"]).toBe("2")
      })
    )
  })

  it.live("both ways count the same keys: nodes on either share one limit and answer the same", () =>
    Effect.gen(function* () {
      const build = (limiter: Layer.Layer<RouteLimiter.RouteLimiter, Redis.RedisError>) =>
        Effect.map(Layer.build(limiter), (context) => Context.get(context, RouteLimiter.RouteLimiter))
      const viaStore = yield* build(viaStoreOn(short))
      const viaScript = yield* build(viaScriptOn(short))
      const request = { route: "things.list", majorId: "1", caller: freshCaller() }
      const answers = [yield* viaStore.check(request), yield* viaScript.check(request), yield* viaStore.check(request)]
      expect(answers.map((headers) => headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
      expect(new Set(answers.map((headers) => headers["x-ratelimit-bucket"])).size).toBe(1)
      const refusedByScript = yield* Effect.flip(viaScript.check(request))
      const refusedByStore = yield* Effect.flip(viaStore.check(request))
      expect(refusedByScript.headers["retry-after"]).toBe(refusedByStore.headers["retry-after"])
      expect(Math.abs(refusedByScript.retryAfterMs - refusedByStore.retryAfterMs)).toBeLessThan(50)
    }).pipe(Effect.scoped)
  )
})

describe.runIf(redisUrl !== undefined && redisUrl !== "")("QuotaLimiter (Redis store)", () => {
  // effect's fixed-window script, given -1 for a key it does not have (the unit's counter expired
  // while its login was judged), stored -1 for a millisecond: a use arriving then counted from -1,
  // and the fresh window held one unit more than the quota (issue 16).
  it.live("a unit given back after its counter expired creates nothing: the fresh window has exactly the quota", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter.QuotaLimiter
      for (let trial = 0; trial < 20; trial++) {
        const phone = `+7998${String(Date.now()).slice(-5)}${String(trial).padStart(2, "0")}`
        yield* limiter.giveBack("smsPerPhone", phone)
        const results = yield* Effect.forEach(Array.from({ length: 4 }), () =>
          Effect.result(limiter.consume("smsPerPhone", phone))
        )
        expect(results.map((r) => r._tag)).toEqual(["Success", "Success", "Success", "Failure"])
      }
    }).pipe(
      Effect.provide(
        QuotaLimiter.QuotaLimiter.layer().pipe(
          Layer.provide(
            RedisRateLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:` })
          )
        )
      )
    )
  )

  it.live("counts concurrent uses atomically: exactly 3 of 20 parallel sends pass", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter.QuotaLimiter
      const phone = `+7999${String(Date.now()).slice(-7)}`
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => Effect.result(limiter.consume("smsPerPhone", phone)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(3)
      // A unit given back can be taken again, once.
      yield* limiter.giveBack("smsPerPhone", phone)
      expect((yield* limiter.consume("smsPerPhone", phone)).remaining).toBe(0)
      expect((yield* Effect.flip(limiter.consume("smsPerPhone", phone)))._tag).toBe("QuotaExceeded")
    }).pipe(
      Effect.provide(
        QuotaLimiter.QuotaLimiter.layer().pipe(
          Layer.provide(
            RedisRateLimits.layer({ url: Redacted.make(redisUrl ?? ""), prefix: `veche:test:${process.pid}:` })
          )
        )
      )
    )
  )
})

describe.runIf(redisUrl !== undefined && redisUrl !== "")("RouteLimiter on Redis, one round trip", () => {
  it.live("loads its script again when Redis lost it (NOSCRIPT) and keeps counting", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter.RouteLimiter
      const redis = yield* Redis.Redis
      const call = limiter.check({ route: "things.list", majorId: "1", caller: freshCaller() })
      expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
      yield* redis.send("SCRIPT", "FLUSH")
      expect((yield* call)["x-ratelimit-remaining"]).toBe("1")
    }).pipe(
      Effect.provide(
        RouteLimiter.RouteLimiter.layerRedis({ prefix: options().prefix }).pipe(
          Layer.provide(short),
          Layer.provideMerge(RedisRateLimits.connection(options()))
        )
      )
    )
  )
})

describe.runIf(redisUrl !== undefined && redisUrl !== "")(
  "RouteLimiter on Redis, the counts of one turn in one call",
  () => {
    /** The script-counting limiter over a connection that also records the commands it sends. */
    const recordedOn = (buckets: Layer.Layer<RouteBuckets.RouteBuckets>) => {
      const sent: Array<ReadonlyArray<string>> = []
      const recording = Layer.effect(
        RouteCountConnection.RouteCountConnection,
        Effect.map(Effect.service(RouteCountConnection.RouteCountConnection), (connection) =>
          RouteCountConnection.RouteCountConnection.of({
            send: (command, onReply, onFailure) => {
              sent.push(command)
              connection.send(command, onReply, onFailure)
            }
          })
        )
      )
      const limiter = RouteLimiter.RouteLimiter.layerRedis({ prefix: options().prefix }).pipe(
        Layer.provide(buckets),
        Layer.provide(recording),
        Layer.provideMerge(RedisRateLimits.connection(options()))
      )
      return { limiter, evals: () => sent.filter((command) => command[0] === "EVALSHA").length }
    }
    /** A counter's value and expiry as Redis holds them. */
    const stored = (key: string) =>
      Effect.flatMap(Effect.service(Redis.Redis), (redis) =>
        Effect.all([
          redis.send<string | null>("GET", `${options().prefix}${key}`),
          redis.send<number>("PTTL", `${options().prefix}${key}`)
        ])
      )

    it.live("the batch script answers and leaves what the one-request script does, called in a row", () =>
      Effect.gen(function* () {
        const redis = yield* Effect.service(Redis.Redis)
        const base = `${options().prefix}walk-${freshCaller()}:`
        const global = { limit: 30, windowMs: 60_000 }
        const network = { limit: 40, windowMs: 60_000 }
        const buckets = [
          { limit: 3, windowMs: 60_000 },
          { limit: 6, windowMs: 60_000 }
        ]
        // A fixed pseudo-random walk: batches of 1-8 requests from 3 callers, 2 buckets, some of one network.
        // Windows of a minute: no key expires between the calls in a row and the batch a moment later.
        let seed = 11
        const next = (n: number) => {
          seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
          // The high bits: this generator's low bits repeat within a few calls.
          return Math.floor(seed / 65_536) % n
        }
        // Expiries are set against Redis's clock as each call runs: those the calls in a row and the
        // batches leave differ by at most the time since the walk's first call (a busy machine makes
        // that longer than any fixed bound), never by a refill (1.5 s and up).
        const began = Date.now()
        const sinceBegan = () => Date.now() - began + 2
        for (let round = 0; round < 40; round++) {
          const requests = Array.from({ length: 1 + next(8) }, () => ({
            caller: next(3),
            bucket: next(2),
            network: next(3) === 0
          }))
          const keysOf = (space: string, request: (typeof requests)[number]) => [
            `${base}${space}:g:${request.caller}`,
            `${base}${space}:b:${request.bucket}:${request.caller}`,
            ...(request.network ? [`${base}${space}:n`] : [])
          ]
          const inRow: Array<ReadonlyArray<number>> = []
          for (const request of requests) {
            const keys = keysOf("row", request)
            const bucket = buckets[request.bucket] ?? global
            inRow.push(
              yield* redis.send<ReadonlyArray<number>>(
                "EVAL",
                RouteCountScript.lua,
                String(keys.length),
                ...keys,
                ...RouteCountScript.argsOf(global),
                ...RouteCountScript.argsOf(bucket),
                ...(request.network ? RouteCountScript.argsOf(network) : [])
              )
            )
          }
          // As the limiter gathers them: one counting per caller, bucket and network (a prepared
          // count), so repeated requests share their plan, and requests in a row make runs.
          const batch = RouteCountBatch.make()
          const countings = new Map<string, RouteCountBatch.Counting>()
          for (const request of requests) {
            const identity = `${request.caller}:${request.bucket}:${request.network}`
            let counting = countings.get(identity)
            if (counting === undefined) {
              counting = {
                keys: keysOf("batch", request),
                bucketArgs: RouteCountScript.argsOf(buckets[request.bucket] ?? global)
              }
              countings.set(identity, counting)
            }
            batch.add(counting)
          }
          const [, , ...args] = batch.command([...RouteCountScript.argsOf(global), ...RouteCountScript.argsOf(network)])
          const batched = yield* redis.send<ReadonlyArray<number>>("EVAL", RouteCountScript.batchLua, ...args)
          requests.forEach((_, i) => {
            const [stage, count, ttlMs] = inRow[i] ?? []
            expect([batched[i * 3], batched[i * 3 + 1]]).toEqual([stage, count])
            expect(Math.abs((batched[i * 3 + 2] ?? 0) - (ttlMs ?? 0))).toBeLessThanOrEqual(sinceBegan())
          })
          for (const key of new Set(requests.flatMap((request) => keysOf("row", request)))) {
            const other = key.replace(`${base}row:`, `${base}batch:`)
            expect(yield* redis.send("GET", other)).toEqual(yield* redis.send("GET", key))
            const ttls = [yield* redis.send<number>("PTTL", key), yield* redis.send<number>("PTTL", other)]
            expect(Math.abs((ttls[0] ?? 0) - (ttls[1] ?? 0))).toBeLessThanOrEqual(sinceBegan())
          }
        }
      }).pipe(Effect.provide(RedisRateLimits.connection(options())))
    )

    it.live("two requests of one turn share a key: one call, and the second sees the first's count", () => {
      const { limiter, evals } = recordedOn(short)
      return Effect.gen(function* () {
        const routeLimiter = yield* RouteLimiter.RouteLimiter
        const request = { route: "things.list", majorId: "1", caller: freshCaller() }
        const answers = yield* Effect.all([routeLimiter.check(request), routeLimiter.check(request)], {
          concurrency: "unbounded"
        })
        expect(answers.map((headers) => headers["x-ratelimit-remaining"])).toEqual(["2", "1"])
        expect(evals()).toBe(1)
      }).pipe(Effect.provide(limiter))
    })

    it.live("a request refused in a batch is not counted; the key keeps what calls in a row leave", () => {
      const { limiter, evals } = recordedOn(short)
      return Effect.gen(function* () {
        const routeLimiter = yield* RouteLimiter.RouteLimiter
        const caller = freshCaller()
        const request = { route: "things.list", majorId: "1", caller }
        const answers = yield* Effect.all(
          Array.from({ length: 5 }, () => Effect.result(routeLimiter.check(request))),
          { concurrency: "unbounded" }
        )
        expect(
          answers.map((answer) =>
            answer._tag === "Success"
              ? answer.success["x-ratelimit-remaining"]
              : answer.failure.headers["x-ratelimit-scope"]
          )
        ).toEqual(["2", "1", "0", "user", "user"])
        expect(evals()).toBe(1)
        // Three counted, each pushing the expiry on by 600 / 3 ms from the first's 200.
        const [count, pttl] = yield* stored(`b:small:1:${caller}`)
        expect(count).toBe("3")
        expect(pttl).toBeGreaterThan(500)
        expect(pttl).toBeLessThanOrEqual(600)
        const [globalCount] = yield* stored(`g:${caller}`)
        expect(globalCount).toBe("5")
      }).pipe(Effect.provide(limiter))
    })

    it.live("a request refused by the global limit in a batch leaves its bucket uncounted", () => {
      const { limiter } = recordedOn(perMinute(2, 5))
      return Effect.gen(function* () {
        const routeLimiter = yield* RouteLimiter.RouteLimiter
        const caller = freshCaller()
        const request = { route: "things.list", majorId: "1", caller }
        const answers = yield* Effect.all(
          Array.from({ length: 4 }, () => Effect.result(routeLimiter.check(request))),
          { concurrency: "unbounded" }
        )
        expect(answers.map((answer) => answer._tag)).toEqual(["Success", "Success", "Failure", "Failure"])
        const refused = answers[2]
        expect(refused?._tag === "Failure" && refused.failure.global).toBe(true)
        expect((yield* stored(`g:${caller}`))[0]).toBe("2")
        expect((yield* stored(`b:small:1:${caller}`))[0]).toBe("2")
      }).pipe(Effect.provide(limiter))
    })

    it.live("callers with and without a network in one batch: the network counted across them", () => {
      const { limiter, evals } = recordedOn(perMinute(2, 5))
      return Effect.gen(function* () {
        const routeLimiter = yield* RouteLimiter.RouteLimiter
        const network = `a:net-${freshCaller()}`
        // 17 callers of one /48 (its limit 16), one caller of no network in the middle.
        const requests = Array.from({ length: 18 }, (_, i) =>
          i === 8
            ? { route: "things.list", majorId: "1", caller: freshCaller() }
            : { route: "things.list", majorId: "1", caller: freshCaller(), network }
        )
        const answers = yield* Effect.all(
          requests.map((request) => Effect.result(routeLimiter.check(request))),
          { concurrency: "unbounded" }
        )
        expect(answers.map((answer) => answer._tag)).toEqual([...Array(17).fill("Success"), "Failure"])
        expect(evals()).toBe(1)
        expect((yield* stored(`n:${network}`))[0]).toBe("16")
      }).pipe(Effect.provide(limiter))
    })

    it.live("a burst past the batch's size is counted in order over several calls", () => {
      const { limiter, evals } = recordedOn(perMinute(10_000, 1_000))
      return Effect.gen(function* () {
        const routeLimiter = yield* RouteLimiter.RouteLimiter
        const request = { route: "things.list", majorId: "1", caller: freshCaller() }
        const n = 2 * RouteLimiter.MAX_BATCH + 3
        const answers = yield* Effect.all(
          Array.from({ length: n }, () => routeLimiter.check(request)),
          { concurrency: "unbounded" }
        )
        expect(answers.map((headers) => Number(headers["x-ratelimit-remaining"]))).toEqual(
          Array.from({ length: n }, (_, i) => 999 - i)
        )
        expect(evals()).toBe(3)
      }).pipe(Effect.provide(limiter))
    })

    it.live("its prepared checks answer what its checks answer, request for request, and share the keys", () =>
      Effect.gen(function* () {
        // Two limiters on one connection, each counting in a key space of its own: one asked
        // through `prepare` (one kept per caller and route, as the middleware keeps them), the
        // other through `check`. Each step sends the same requests to both in one batch, so Redis
        // steps both spaces at the same instant.
        const tight = RouteBuckets.RouteBuckets.layer({
          global: { limit: 5, windowMs: 60_000 },
          buckets: { small: { limit: 3, windowMs: 60_000 }, pooled: { limit: 2, windowMs: 60_000, shared: true } },
          routes: { "things.list": "small", "things.other": "default", "emoji.create": "pooled" }
        })
        const space = `${options().prefix}prepared-${freshCaller()}:`
        const build = (prefix: string) =>
          Effect.map(
            Layer.build(
              RouteLimiter.RouteLimiter.layerRedis({ prefix }).pipe(
                Layer.provide(tight),
                Layer.provide(RedisRateLimits.connection(options()))
              )
            ),
            (context) => Context.get(context, RouteLimiter.RouteLimiter)
          )
        const viaPrepare = yield* build(`${space}p:`)
        const viaCheck = yield* build(`${space}c:`)
        const callers = [
          { caller: freshCaller(), network: "a:2001:db8:7" },
          { caller: freshCaller(), network: "a:2001:db8:7" },
          { caller: freshCaller(), network: undefined }
        ]
        const routes = ["things.list", "things.other", "emoji.create"]
        const prepared = new Map<string, ReturnType<RouteLimiter.RouteLimiter["Service"]["prepare"]>>()
        let seed = 7
        const next = (n: number) => {
          seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
          return Math.floor(seed / 65_536) % n
        }
        const outcomes = new Set<string>()
        for (let step = 0; step < 60; step++) {
          const requests = Array.from({ length: 1 + next(3) }, () => ({
            route: routes[next(routes.length)] ?? "things.list",
            majorId: undefined,
            ...(callers[next(callers.length)] ?? { caller: "t:x", network: undefined })
          }))
          const preparedOf = (request: RouteLimiter.Request) => {
            const key = `${request.route} ${request.caller}`
            let check = prepared.get(key)
            if (check === undefined) {
              check = viaPrepare.prepare(request)
              prepared.set(key, check)
            }
            return check
          }
          const answers = yield* Effect.all(
            requests.flatMap((request) => [Effect.result(preparedOf(request)), Effect.result(viaCheck.check(request))]),
            { concurrency: "unbounded" }
          )
          for (let i = 0; i < answers.length; i += 2) {
            const [fromPrepared, fromCheck] = [answers[i], answers[i + 1]]
            if (fromPrepared?._tag === "Success" && fromCheck?._tag === "Success") {
              const { "x-ratelimit-reset": reset, "x-ratelimit-reset-after": after, ...rest } = fromPrepared.success
              const {
                "x-ratelimit-reset": expectedReset,
                "x-ratelimit-reset-after": expectedAfter,
                ...expected
              } = fromCheck.success
              expect(rest).toEqual(expected)
              // The times: the clock read as each answer is handed back, and the expiry Redis holds,
              // which the scheduler may have sent in two calls apart: a millisecond on a quiet
              // machine, 7 ms once on a slow one. A wrong window would be off by far more.
              expect(Math.abs(Number(reset) - Number(expectedReset))).toBeLessThanOrEqual(0.05)
              expect(Math.abs(Number(after) - Number(expectedAfter))).toBeLessThanOrEqual(0.05)
              outcomes.add("through")
            } else {
              expect(fromPrepared?._tag).toBe("Failure")
              expect(fromCheck?._tag).toBe("Failure")
              if (fromPrepared?._tag === "Failure" && fromCheck?._tag === "Failure") {
                expect(fromPrepared.failure.global).toBe(fromCheck.failure.global)
                expect(fromPrepared.failure.headers["retry-after"]).toBe(fromCheck.failure.headers["retry-after"])
                expect(fromPrepared.failure.headers["x-ratelimit-scope"]).toBe(
                  fromCheck.failure.headers["x-ratelimit-scope"]
                )
                outcomes.add(fromCheck.failure.global ? "global" : "bucket")
              }
            }
          }
        }
        // the walk is refused by a bucket and by the global limit too, not only let through
        expect([...outcomes].sort()).toEqual(["bucket", "global", "through"])
        // and a prepared check counts the keys a check counts: a node on either shares the limit
        const request = { route: "things.list", majorId: undefined, caller: freshCaller(), network: undefined }
        const viaBoth = yield* build(`${space}both:`)
        const answers = [
          yield* viaBoth.prepare(request),
          yield* viaBoth.check(request),
          yield* viaBoth.prepare(request)
        ]
        expect(answers.map((headers) => headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
      }).pipe(Effect.scoped)
    )
  }
)

describe("RouteLimiter on Redis, a batch past the connection's deadline", () => {
  it.live("lets every request of the batch through, once, when Redis does not answer in time", () =>
    Effect.gen(function* () {
      let sent = 0
      const silent = RedisRateLimits.routeCounts(
        {
          sendCommand: () => {
            sent++
            return new Promise(() => {})
          }
        },
        50
      )
      const limiter = yield* Effect.service(RouteLimiter.RouteLimiter).pipe(
        Effect.provide(
          RouteLimiter.RouteLimiter.layerRedis().pipe(
            Layer.provide(short),
            Layer.provide(Layer.succeed(RouteCountConnection.RouteCountConnection, silent))
          )
        )
      )
      const answers = yield* Effect.all(
        [1, 2, 3].map((i) => limiter.check({ route: "things.list", majorId: String(i), caller: "t:x" })),
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual([{}, {}, {}])
      // The script's load timed out: the batch never reached its EVALSHA.
      expect(sent).toBe(1)
    })
  )
})
