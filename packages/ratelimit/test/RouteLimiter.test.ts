import { describe, expect, it, layer } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import type { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import * as BucketId from "../src/BucketId.ts"
import * as RateLimitStore from "../src/RateLimitStore.ts"
import { RouteBuckets } from "../src/RouteBuckets.ts"
import { RouteCountConnection } from "../src/RouteCountConnection.ts"
import { MAX_BATCH, RouteLimiter } from "../src/RouteLimiter.ts"
import * as WindowCounters from "../src/WindowCounters.ts"
import * as BrokenStore from "./BrokenStore.ts"

const buckets = RouteBuckets.layer({
  global: { limit: 20, windowMs: 1_000 },
  buckets: {
    small: { limit: 3, windowMs: 10_000 },
    pooled: { limit: 2, windowMs: 10_000, shared: true }
  },
  routes: { "things.list": "small", "things.get": "small", "things.other": "default", "emoji.create": "pooled" }
})

const limiterOn = (store: Layer.Layer<RateLimiter.RateLimiter>) =>
  RouteLimiter.layer.pipe(Layer.provide(buckets), Layer.provide(store))

let callers = 0
const freshCaller = () => `t:test-${process.pid}-${Date.now()}-${++callers}`

const counted: ReadonlyArray<readonly [string, Layer.Layer<RouteLimiter>]> = [
  ["effect's memory store", limiterOn(RateLimitStore.layerMemory)],
  ["in process", RouteLimiter.layerInProcess.pipe(Layer.provide(buckets))]
]

describe.each(counted)("RouteLimiter (%s)", (_name, limiter) => {
  layer(limiter)((it) => {
    it.effect("counts down a bucket and reports the platform's headers", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 1))
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        const first = yield* limiter.check({ route: "things.list", majorId: undefined, caller })
        expect(first).toEqual({
          "x-ratelimit-limit": "3",
          "x-ratelimit-remaining": "2",
          "x-ratelimit-reset": expect.stringMatching(/^\d{10}\.\d{3}$/),
          "x-ratelimit-reset-after": expect.stringMatching(/^\d+\.\d{3}$/),
          "x-ratelimit-bucket": BucketId.of("small")
        })
        const second = yield* limiter.check({ route: "things.get", majorId: undefined, caller })
        // another route of the same bucket shares the counter and the bucket id
        expect(second["x-ratelimit-remaining"]).toBe("1")
        expect(second["x-ratelimit-bucket"]).toBe(first["x-ratelimit-bucket"])
        const other = yield* limiter.check({ route: "things.other", majorId: undefined, caller })
        expect(other["x-ratelimit-bucket"]).not.toBe(first["x-ratelimit-bucket"])
      })
    )

    it.effect("a network (/48) counts against eight times the global limit, shared by its callers", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 5))
        const limiter = yield* RouteLimiter
        const network = `a:net-${freshCaller()}`
        // 20 per second per caller, 160 per network: eight callers pass in full, the ninth is refused
        for (let i = 0; i < 8; i++) {
          const caller = freshCaller()
          for (let j = 0; j < 20; j++)
            yield* limiter.check({ route: "things.other", majorId: String(j), caller, network })
        }
        const refused = yield* Effect.flip(
          limiter.check({ route: "things.other", majorId: "1", caller: freshCaller(), network })
        )
        expect(refused.global).toBe(true)
        expect(refused.headers["x-ratelimit-global"]).toBe("true")
        // another network is counted apart
        yield* limiter.check({ route: "things.other", majorId: "1", caller: freshCaller(), network: `${network}-2` })
      })
    )

    it.effect("refuses past the limit with retry-after and scope user, then resets after the window", () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 0, 2))
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        const call = limiter.check({ route: "things.list", majorId: undefined, caller })
        for (let i = 0; i < 3; i++) yield* call
        const refused = yield* Effect.flip(call)
        expect(refused.global).toBe(false)
        expect(refused.retryAfterMs).toBeCloseTo(10_000, 0)
        expect(refused.headers).toMatchObject({
          "x-ratelimit-limit": "3",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": "10.000",
          "retry-after": "10",
          "x-ratelimit-scope": "user"
        })
        expect(refused.headers).not.toHaveProperty("x-ratelimit-global")
        yield* TestClock.adjust("10 seconds")
        expect((yield* call)["x-ratelimit-remaining"]).toBe("2")
      })
    )

    it.effect("keeps separate counters per caller and per top-level resource id", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        for (let i = 0; i < 3; i++) yield* limiter.check({ route: "things.list", majorId: "111", caller })
        expect((yield* Effect.flip(limiter.check({ route: "things.list", majorId: "111", caller }))).global).toBe(false)
        const otherGuild = yield* limiter.check({ route: "things.list", majorId: "222", caller })
        expect(otherGuild["x-ratelimit-remaining"]).toBe("2")
        const otherCaller = yield* limiter.check({ route: "things.list", majorId: "111", caller: freshCaller() })
        expect(otherCaller["x-ratelimit-remaining"]).toBe("2")
      })
    )

    it.effect("a shared bucket counts every caller together and answers scope shared", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        yield* limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        yield* limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        const refused = yield* Effect.flip(
          limiter.check({ route: "emoji.create", majorId: "333", caller: freshCaller() })
        )
        expect(refused.headers["x-ratelimit-scope"]).toBe("shared")
      })
    )

    it.effect("the global limit answers global with X-RateLimit-Global and no bucket headers", () =>
      Effect.gen(function* () {
        const limiter = yield* RouteLimiter
        const caller = freshCaller()
        for (let i = 0; i < 20; i++) yield* limiter.check({ route: "things.other", majorId: String(i), caller })
        const refused = yield* Effect.flip(limiter.check({ route: "things.other", majorId: "x", caller }))
        expect(refused.global).toBe(true)
        expect(refused.headers).toEqual({
          "retry-after": "1",
          "x-ratelimit-scope": "global",
          "x-ratelimit-global": "true"
        })
      })
    )
  })
})

describe("RouteLimiter when disabled or when the store fails", () => {
  it.effect("answers no headers and never refuses when disabled", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      for (let i = 0; i < 100; i++) {
        expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
      }
    }).pipe(
      Effect.provide(
        RouteLimiter.layer.pipe(
          Layer.provide(RouteBuckets.layer({ enabled: false })),
          Layer.provide(RateLimitStore.layerMemory)
        )
      )
    )
  )

  it.effect("lets requests through (fails open) when the store is unreachable", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
    }).pipe(Effect.provide(RouteLimiter.layer.pipe(Layer.provide(buckets), Layer.provide(BrokenStore.layer))))
  )

  it.effect("lets requests through (fails open) when Redis is unreachable, counting in one script call", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
    }).pipe(
      Effect.provide(RouteLimiter.layerRedis().pipe(Layer.provide(buckets), Layer.provide(BrokenStore.routeCounts)))
    )
  )
})

describe("RouteLimiter on Redis (the counts of one turn in one script call), without Redis", () => {
  /** A connection that records each command and answers it with `reply` (the SHA for SCRIPT LOAD). */
  const recording = (reply: (command: ReadonlyArray<string>) => unknown) => {
    const sent: Array<ReadonlyArray<string>> = []
    const connection = Layer.succeed(
      RouteCountConnection,
      RouteCountConnection.of({
        send: (command, onReply, onFailure) => {
          sent.push([...command])
          const answer = command[0] === "SCRIPT" ? "sha" : reply(command)
          setTimeout(() => (answer instanceof Error ? onFailure(answer) : onReply(answer)), 1)
        }
      })
    )
    return { sent, limiter: RouteLimiter.layerRedis().pipe(Layer.provide(buckets), Layer.provide(connection)) }
  }
  /**
   * The requests in an EVALSHA of the batch script: after the keys, 4 fixed arguments, the number of
   * plans and 5 per plan, then per run its plan and its length.
   */
  const requestsOf = (command: ReadonlyArray<string>) => {
    const runsFrom = 3 + Number(command[2]) + 4
    const plans = Number(command[runsFrom])
    let requests = 0
    for (let i = runsFrom + 1 + 5 * plans + 1; i < command.length; i += 2) requests += Number(command[i])
    return requests
  }
  const countedOnce = (command: ReadonlyArray<string>) =>
    Array.from({ length: requestsOf(command) }, () => [1, 1, 3334]).flat()
  const evals = (sent: ReadonlyArray<ReadonlyArray<string>>) => sent.filter((command) => command[0] === "EVALSHA")
  const request = (i: number) => ({ route: "things.list", majorId: String(i), caller: `t:c${i}` })

  it.live("sends the requests of one turn as one command, keys and arguments in their order", () => {
    // Every request: its bucket counted once (count 1, 10 s over 3 requests).
    const { sent, limiter } = recording(countedOnce)
    return Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      const answers = yield* Effect.all(
        [0, 1, 2].map((i) => limiter.check(i === 1 ? { ...request(i), network: "a:net" } : request(i))),
        { concurrency: "unbounded" }
      )
      expect(answers.map((headers) => headers["x-ratelimit-remaining"])).toEqual(["2", "2", "2"])
      expect(evals(sent)).toEqual([
        [
          "EVALSHA",
          "sha",
          "7",
          "veche:rl:g:t:c0",
          "veche:rl:b:small:0:t:c0",
          "veche:rl:g:t:c1",
          "veche:rl:b:small:1:t:c1",
          "veche:rl:n:a:net",
          "veche:rl:g:t:c2",
          "veche:rl:b:small:2:t:c2",
          "20",
          "50",
          "160",
          "6.25",
          // Three plans: each request's keys by index (its network's, or 0), its bucket's limit and refill.
          "3",
          ...["1", "2", "0", "3", String(10_000 / 3)],
          ...["3", "4", "5", "3", String(10_000 / 3)],
          ...["6", "7", "0", "3", String(10_000 / 3)],
          // Runs: each plan once.
          ...["1", "1", "2", "1", "3", "1"]
        ]
      ])
    }).pipe(Effect.provide(limiter))
  })

  it.live("sends a key and a prepared count once however many requests of the turn repeat them", () => {
    // Two requests of one caller and route, one of another route, then the first's again.
    const { sent, limiter } = recording(countedOnce)
    return Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      const listed = limiter.prepare(request(0))
      const other = limiter.prepare({ route: "things.other", majorId: undefined, caller: "t:c0" })
      const answers = yield* Effect.all([listed, listed, other, listed], { concurrency: "unbounded" })
      expect(answers.map((headers) => headers["x-ratelimit-remaining"])).toEqual(["2", "2", "49", "2"])
      expect(evals(sent)).toEqual([
        [
          "EVALSHA",
          "sha",
          "3",
          "veche:rl:g:t:c0",
          "veche:rl:b:small:0:t:c0",
          "veche:rl:b:default:-:t:c0",
          "20",
          "50",
          "160",
          "6.25",
          "2",
          ...["1", "2", "0", "3", String(10_000 / 3)],
          ...["1", "3", "0", "50", "200"],
          ...["1", "2", "2", "1", "1", "1"]
        ]
      ])
    }).pipe(Effect.provide(limiter))
  })

  it.live(`sends at most ${MAX_BATCH} requests in one command`, () => {
    const { sent, limiter } = recording(countedOnce)
    return Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      const answers = yield* Effect.all(
        Array.from({ length: 2 * MAX_BATCH + 1 }, (_, i) => limiter.check(request(i))),
        { concurrency: "unbounded" }
      )
      expect(answers).toHaveLength(2 * MAX_BATCH + 1)
      expect(evals(sent).map(requestsOf)).toEqual([MAX_BATCH, MAX_BATCH, 1])
    }).pipe(Effect.provide(limiter))
  })

  it.live("lets every request of a batch through (fails open) when its command fails", () => {
    const { sent, limiter } = recording(() => new Error("connection reset"))
    return Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      const answers = yield* Effect.all(
        [0, 1, 2, 3].map((i) => limiter.check(request(i))),
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual([{}, {}, {}, {}])
      expect(evals(sent)).toHaveLength(1)
    }).pipe(Effect.provide(limiter))
  })

  it.live("lets every request of a batch through when the reply does not fit the batch", () => {
    const { limiter } = recording(() => [1, 1, 3334])
    return Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      const answers = yield* Effect.all(
        [0, 1].map((i) => limiter.check(request(i))),
        { concurrency: "unbounded" }
      )
      expect(answers).toEqual([{}, {}])
    }).pipe(Effect.provide(limiter))
  })
})

describe("RouteLimiter in process", () => {
  it.effect("answers exactly what the store-backed limiter answers, request for request", () =>
    Effect.gen(function* () {
      const both = yield* Effect.all([
        Effect.provide(Effect.service(RouteLimiter), limiterOn(RateLimitStore.layerMemory)),
        Effect.provide(Effect.service(RouteLimiter), RouteLimiter.layerInProcess.pipe(Layer.provide(buckets)))
      ])
      yield* TestClock.setTime(Date.UTC(2026, 0, 1))
      const callers = [freshCaller(), freshCaller(), freshCaller()]
      const routes = ["things.list", "things.other", "emoji.create"]
      // A fixed pseudo-random walk: bursts, pauses shorter and longer than the windows.
      let seed = 7
      const next = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
        return seed % n
      }
      const majorIds = new Set<string>()
      for (let i = 0; i < 400; i++) {
        const request = {
          route: routes[next(routes.length)] ?? "things.list",
          majorId: String(next(2)),
          caller: callers[next(callers.length)] ?? "t:x"
        }
        majorIds.add(request.majorId)
        const [viaStore, inProcess] = yield* Effect.all(both.map((limiter) => Effect.result(limiter.check(request))))
        expect(inProcess).toEqual(viaStore)
        yield* TestClock.adjust(Duration.millis([0, 0, 10, 250, 1_500, 4_000][next(6)] ?? 0))
      }
      // the walk reaches both major ids (per-resource buckets are part of what is compared)
      expect(majorIds.size).toBe(2)
    })
  )

  it.effect("its prepared counts answer what the store-backed limiter answers, request for request", () =>
    Effect.gen(function* () {
      // A global limit below the buckets' own, so the walk meets it too.
      const tight = RouteBuckets.layer({
        global: { limit: 5, windowMs: 1_000 },
        buckets: { small: { limit: 3, windowMs: 10_000 }, pooled: { limit: 2, windowMs: 10_000, shared: true } },
        routes: { "things.list": "small", "things.other": "default", "emoji.create": "pooled" }
      })
      const [viaStore, inProcess] = yield* Effect.all([
        Effect.provide(
          Effect.service(RouteLimiter),
          RouteLimiter.layer.pipe(Layer.provide(tight), Layer.provide(RateLimitStore.layerMemory))
        ),
        Effect.provide(Effect.service(RouteLimiter), RouteLimiter.layerInProcess.pipe(Layer.provide(tight)))
      ])
      const prepareSync = inProcess.prepareSync
      if (prepareSync === undefined) return yield* Effect.die("the in-process limiter prepares its counts")
      yield* TestClock.setTime(Date.UTC(2026, 0, 1))
      // Two callers of one network (/48), so its counter takes part; one prepared count each, kept.
      const callers = [
        { caller: freshCaller(), network: "a:2001:db8:1" },
        { caller: freshCaller(), network: "a:2001:db8:1" },
        { caller: freshCaller(), network: undefined }
      ]
      const routes = ["things.list", "things.other", "emoji.create"]
      const prepared = new Map<string, (nowMs: number) => unknown>()
      let seed = 11
      const next = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
        return seed % n
      }
      const outcomes = new Set<string>()
      for (let i = 0; i < 600; i++) {
        const who = callers[next(callers.length)] ?? { caller: "t:x", network: undefined }
        const request = { route: routes[next(routes.length)] ?? "things.list", majorId: undefined, ...who }
        const key = `${request.route} ${request.caller}`
        let count = prepared.get(key)
        if (count === undefined) {
          count = prepareSync(request)
          prepared.set(key, count)
        }
        const expected = yield* Effect.result(viaStore.check(request))
        const nowMs = yield* Effect.clockWith((clock) => Effect.sync(() => clock.currentTimeMillisUnsafe()))
        expect(count(nowMs)).toEqual(expected)
        outcomes.add(expected._tag === "Success" ? "through" : expected.failure.global ? "global" : "bucket")
        yield* TestClock.adjust(Duration.millis([0, 0, 0, 0, 0, 0, 10, 250, 1_500, 4_000][next(10)] ?? 0))
      }
      // the walk is refused by a bucket and by the global limit too, not only let through
      expect([...outcomes].sort()).toEqual(["bucket", "global", "through"])
    })
  )

  it.effect("answers no headers and never refuses when disabled", () =>
    Effect.gen(function* () {
      const limiter = yield* RouteLimiter
      for (let i = 0; i < 100; i++) {
        expect(yield* limiter.check({ route: "things.list", majorId: undefined, caller: "t:x" })).toEqual({})
      }
    }).pipe(Effect.provide(RouteLimiter.layerInProcess.pipe(Layer.provide(RouteBuckets.layer({ enabled: false })))))
  )
})

describe("WindowCounters", () => {
  it("refuses past the limit without counting, and starts again when the window has passed", () => {
    const counters = WindowCounters.make()
    const at = 1_000_000
    expect([1, 2, 3].map(() => counters.count("k", 3, 3_000, at).allowed)).toEqual([true, true, true])
    expect(counters.count("k", 3, 3_000, at)).toEqual({ allowed: false, count: 4, resetAfterMs: 3_000 })
    // Each request pushed the expiry on by window / limit: one is free again after a third.
    expect(counters.count("k", 3, 3_000, at + 1_000)).toMatchObject({ allowed: false })
    expect(counters.count("k", 3, 3_000, at + 3_000)).toEqual({ allowed: true, count: 1, resetAfterMs: 1_000 })
  })

  it("forgets expired counters as new ones arrive, so one-off callers do not stay in memory", () => {
    const counters = WindowCounters.make({ sweepAt: 100 })
    for (let i = 0; i < 1_000; i++) counters.count(`caller-${i}`, 5, 1_000, i * 10)
    // Counters live 200 ms (1 of 5 per 1000 ms) and one arrives every 10 ms: ~20 are live at a time.
    expect(counters.size()).toBeLessThan(150)
    expect(counters.count("caller-999", 5, 1_000, 9_990)).toMatchObject({ allowed: true, count: 2 })
  })
})
