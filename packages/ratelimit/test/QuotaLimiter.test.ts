import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import * as AddressGroups from "../src/AddressGroups.ts"
import { QuotaLimiter } from "../src/QuotaLimiter.ts"
import type * as Quotas from "../src/Quotas.ts"
import * as RateLimitStore from "../src/RateLimitStore.ts"
import * as WindowCounters from "../src/WindowCounters.ts"
import * as BrokenStore from "./BrokenStore.ts"

type Overrides = Partial<Record<Quotas.Name, Quotas.Quota>>

/** The two ways quotas count without Redis: through effect's memory store, and in process. */
const variants = [
  {
    name: "through the store",
    layerOn: (counters: WindowCounters.WindowCounters, overrides: Overrides = {}) =>
      QuotaLimiter.layer(overrides).pipe(Layer.provide(RateLimitStore.layerMemoryOn(counters)))
  },
  { name: "in process", layerOn: QuotaLimiter.layerInProcessOn }
]

describe.each(variants)("QuotaLimiter ($name)", ({ layerOn }) => {
  const quotas = Layer.suspend(() => layerOn(WindowCounters.make()))

  it.effect("allows 3 SMS per phone per hour, then refuses until the hour is over", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (const left of [2, 1, 0]) expect((yield* limiter.consume("smsPerPhone", "+79161234567")).remaining).toBe(left)
      const refused = yield* Effect.flip(limiter.consume("smsPerPhone", "+79161234567"))
      expect(refused._tag).toBe("QuotaExceeded")
      // another phone is counted apart
      expect((yield* limiter.consume("smsPerPhone", "+79161234568")).remaining).toBe(2)
      yield* TestClock.adjust("1 hour")
      expect((yield* limiter.consume("smsPerPhone", "+79161234567")).remaining).toBe(2)
    }).pipe(Effect.provide(quotas))
  )

  it.effect("check tells whether a use is left without counting one", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (let i = 0; i < 5; i++) expect((yield* limiter.check("dataExportPerUser", "u1")).remaining).toBe(1)
      yield* limiter.consume("dataExportPerUser", "u1")
      expect((yield* Effect.flip(limiter.check("dataExportPerUser", "u1")))._tag).toBe("QuotaExceeded")
    }).pipe(Effect.provide(quotas))
  )

  it.effect("tryConsume takes what consume takes and answers whether it could, instead of failing", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (let i = 0; i < 3; i++) expect(yield* limiter.tryConsume("smsPerPhone", "+79161234569")).toBe(true)
      expect(yield* limiter.tryConsume("smsPerPhone", "+79161234569")).toBe(false)
      expect((yield* Effect.flip(limiter.consume("smsPerPhone", "+79161234569")))._tag).toBe("QuotaExceeded")
      yield* TestClock.adjust("1 hour")
      expect(yield* limiter.tryConsume("smsPerPhone", "+79161234569")).toBe(true)
      expect((yield* limiter.check("smsPerPhone", "+79161234569")).remaining).toBe(2)
    }).pipe(Effect.provide(quotas))
  )

  it.effect(
    "tryConsume walks an address's counters as consume does: a full /48 refuses, the /64's unit stays taken",
    () =>
      Effect.gen(function* () {
        const counters = WindowCounters.make()
        const sides = yield* Effect.forEach([counters, WindowCounters.make()], (on) =>
          Effect.provide(Effect.service(QuotaLimiter), layerOn(on))
        )
        const [tried, consumed] = sides as [QuotaLimiter["Service"], QuotaLimiter["Service"]]
        // captchaFreeAttempts is 1 an hour: eight /64s use the /48's 8
        for (let net = 1; net <= 8; net++) {
          expect(yield* tried.tryConsume("captchaFreeAttempts", `login@2001:db8:30:${net}::1`)).toBe(true)
          yield* consumed.consume("captchaFreeAttempts", `login@2001:db8:30:${net}::1`)
        }
        expect(yield* tried.tryConsume("captchaFreeAttempts", "login@2001:db8:30:9::1")).toBe(false)
        expect((yield* Effect.flip(consumed.consume("captchaFreeAttempts", "login@2001:db8:30:9::1")))._tag).toBe(
          "QuotaExceeded"
        )
        // consume took the ninth /64's own unit before its /48 refused: so did tryConsume
        const ninth = `q:captchaFreeAttempts:login@${AddressGroups.of("2001:db8:30:9::1").narrow}`
        const now = yield* Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
        expect(counters.step(ninth, 0, 1, 1, now)[0]).toBe(1)
        expect(yield* tried.tryConsume("captchaFreeAttempts", "login@2001:db8:31:1::1")).toBe(true)
      })
  )

  it.effect("giveBack returns a unit taken by consume, and its share of the window", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      for (let i = 0; i < 10; i++) yield* limiter.consume("failedMfaPerAccount", "user:1")
      expect((yield* Effect.flip(limiter.consume("failedMfaPerAccount", "user:1")))._tag).toBe("QuotaExceeded")
      yield* limiter.giveBack("failedMfaPerAccount", "user:1")
      const again = yield* limiter.consume("failedMfaPerAccount", "user:1")
      expect(again.remaining).toBe(0)
      // Taken and given back at once, over and over, it never runs out.
      for (let i = 0; i < 20; i++) {
        yield* limiter.consume("failedLoginsPerAccount", "+79160000001")
        yield* limiter.giveBack("failedLoginsPerAccount", "+79160000001")
      }
      expect((yield* limiter.check("failedLoginsPerAccount", "+79160000001")).remaining).toBe(10)
    }).pipe(Effect.provide(quotas))
  )

  it.effect("a unit given back after its window rolled over grants nothing in the new window", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      // Taken in one window, judged while it ends, given back in the next (a slow login).
      yield* limiter.consume("failedLoginsPerAddress", "203.0.113.7")
      yield* TestClock.adjust("16 minutes")
      yield* limiter.giveBack("failedLoginsPerAddress", "203.0.113.7")
      for (let i = 0; i < 50; i++) yield* limiter.consume("failedLoginsPerAddress", "203.0.113.7")
      expect((yield* Effect.flip(limiter.consume("failedLoginsPerAddress", "203.0.113.7")))._tag).toBe("QuotaExceeded")
    }).pipe(Effect.provide(quotas))
  )

  it.effect("takes overrides for a quota", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      yield* limiter.consume("smsPerPhone", "p")
      expect((yield* Effect.flip(limiter.consume("smsPerPhone", "p")))._tag).toBe("QuotaExceeded")
    }).pipe(
      Effect.provide(
        Layer.suspend(() => layerOn(WindowCounters.make(), { smsPerPhone: { limit: 1, windowMs: 60_000 } }))
      )
    )
  )

  it.effect("counts concurrent uses atomically: exactly 3 of 20 parallel sends pass", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => Effect.result(limiter.consume("smsPerPhone", "+79990000000")),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(3)
    }).pipe(Effect.provide(quotas))
  )
})

describe.each(variants)("QuotaLimiter: quotas keyed by client address ($name)", ({ layerOn }) => {
  const quotas = Layer.suspend(() => layerOn(WindowCounters.make()))

  it.effect("two IPv6 addresses in one /64 share a quota; an IPv4-mapped address is its IPv4 address", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      yield* limiter.consume("captchaFreeAttempts", "login@2001:db8:10:1::1")
      expect((yield* Effect.flip(limiter.consume("captchaFreeAttempts", "login@2001:db8:10:1:ffff::2")))._tag).toBe(
        "QuotaExceeded"
      )
      // the scope before "@" still separates flows
      yield* limiter.consume("captchaFreeAttempts", "register@2001:db8:10:1::3")
      yield* limiter.consume("captchaFreeAttempts", "login@198.51.100.20")
      expect((yield* Effect.flip(limiter.consume("captchaFreeAttempts", "login@::ffff:198.51.100.20")))._tag).toBe(
        "QuotaExceeded"
      )
    }).pipe(Effect.provide(quotas))
  )

  it.effect("many /64s of one /48 hit the /48's allowance (eight times the quota)", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      // smsPerAddress is 10 an hour: eight /64s use 80, the ninth /64 is refused by its /48
      for (let net = 1; net <= 8; net++) {
        for (let i = 0; i < 10; i++) yield* limiter.consume("smsPerAddress", `2001:db8:20:${net}::${i + 1}`)
      }
      const refused = yield* Effect.flip(limiter.consume("smsPerAddress", "2001:db8:20:9::1"))
      expect(refused._tag).toBe("QuotaExceeded")
      expect((yield* Effect.flip(limiter.check("smsPerAddress", "2001:db8:20:a::1")))._tag).toBe("QuotaExceeded")
      // another /48 is untouched
      expect((yield* limiter.consume("smsPerAddress", "2001:db8:21:1::1")).remaining).toBe(9)
    }).pipe(Effect.provide(quotas))
  )

  it.effect("in memory, counters of addresses that came once are swept once their window is over", () =>
    Effect.gen(function* () {
      const counters = WindowCounters.make({ sweepAt: 100 })
      const limiter = yield* Effect.provide(Effect.service(QuotaLimiter), layerOn(counters))
      const address = (n: number) => `203.0.${Math.floor(n / 250)}.${n % 250}`
      for (let n = 0; n < 1_000; n++) yield* limiter.consume("failedLoginsPerAddress", address(n))
      expect(counters.size()).toBeGreaterThanOrEqual(1_000)
      yield* TestClock.adjust("1 hour")
      for (let n = 1_000; n < 2_000; n++) yield* limiter.consume("failedLoginsPerAddress", address(n))
      // the first thousand are gone: at most the new ones and one sweep's headroom remain
      expect(counters.size()).toBeLessThanOrEqual(1_100)
    })
  )
})

describe("QuotaLimiter through an unreachable store", () => {
  it.effect("tryConsume fails as consume does when the store cannot be reached", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      expect((yield* Effect.flip(limiter.tryConsume("captchaFreeAttempts", "login@198.51.100.9")))._tag).toBe(
        "QuotaUnavailable"
      )
    }).pipe(Effect.provide(QuotaLimiter.layer().pipe(Layer.provide(BrokenStore.layer))))
  )

  it.effect("giveBack on an unreachable store is a no-op, not a failure", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      yield* limiter.giveBack("failedMfaPerAccount", "user:1")
    }).pipe(Effect.provide(QuotaLimiter.layer().pipe(Layer.provide(BrokenStore.layer))))
  )

  it.effect("refuses (fails closed) when the counter store is unreachable", () =>
    Effect.gen(function* () {
      const limiter = yield* QuotaLimiter
      const error = yield* Effect.flip(limiter.consume("smsPerPhone", "+79161234567"))
      expect(error).toMatchObject({ _tag: "QuotaUnavailable", quota: "smsPerPhone" })
      expect((yield* Effect.flip(limiter.check("recoverEmailPerEmail", "a@b.c")))._tag).toBe("QuotaUnavailable")
    }).pipe(Effect.provide(QuotaLimiter.layer().pipe(Layer.provide(BrokenStore.layer))))
  )
})

describe("QuotaLimiter in process", () => {
  it.effect("answers as the store does, call for call: remaining counts, reset times and refusals", () =>
    Effect.gen(function* () {
      // Odd limits and windows make the steps fractional (a window / limit to the nanosecond); a
      // window under 1 ms counts as 1 ms; a limit of 0 refuses every use.
      const overrides: Overrides = {
        smsPerAddress: { limit: 7, windowMs: 10_000 },
        captchaFreeAttempts: { limit: 3, windowMs: 1_000 },
        failedLoginsPerAccount: { limit: 6, windowMs: 7_001 },
        smsPerPhone: { limit: 3, windowMs: 1_500.25 },
        emailRequestPerUser: { limit: 2, windowMs: 0.5 },
        dataExportPerUser: { limit: 0, windowMs: 60_000 }
      }
      const [store, inProcess] = (yield* Effect.forEach(variants, ({ layerOn }) =>
        Effect.provide(Effect.service(QuotaLimiter), layerOn(WindowCounters.make(), overrides))
      )) as [QuotaLimiter["Service"], QuotaLimiter["Service"]]
      const names = Object.keys(overrides) as ReadonlyArray<Quotas.Name>
      const keys = ["198.51.100.1", "2001:db8:1:1::1", "2001:db8:1:2::1", "login@2001:db8:1:3::9", "+79160000001"]
      const ops = ["consume", "tryConsume", "check", "giveBack"] as const
      // A fixed sequence (mulberry32), so a failure can be replayed.
      let seed = 22
      const next = (below: number) => {
        seed = (seed + 0x6d2b79f5) | 0
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
        return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4_294_967_296) * below)
      }
      const outcome = (effect: Effect.Effect<unknown, { readonly _tag: string }>) =>
        Effect.map(Effect.result(effect), (result) =>
          result._tag === "Success" ? { ok: result.success } : { refused: result.failure }
        )
      const seen = new Map<string, number>()
      const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1)
      for (let step = 0; step < 3_000; step++) {
        if (next(10) === 0) yield* TestClock.adjust(next(4_000) + next(1_000) / 1_000)
        const quota = names[next(names.length)] as Quotas.Name
        const key = keys[next(keys.length)] as string
        const op = ops[next(ops.length)] as (typeof ops)[number]
        const on = (limiter: QuotaLimiter["Service"]) =>
          op === "consume"
            ? outcome(limiter.consume(quota, key))
            : op === "tryConsume"
              ? outcome(limiter.tryConsume(quota, key))
              : op === "check"
                ? outcome(limiter.check(quota, key))
                : outcome(limiter.giveBack(quota, key))
        const expected = yield* on(store)
        count(op)
        count(quota)
        if ("refused" in expected) count(`${op} refused`)
        if ("ok" in expected && expected.ok === false) count("tryConsume false")
        expect(yield* on(inProcess), `step ${step}: ${op} ${quota} ${key}`).toEqual(expected)
      }
      // Every call and quota often, and the limits reached, not only the happy path.
      for (const what of [...ops, ...names]) expect(seen.get(what), what).toBeGreaterThan(300)
      // (this sequence: 127 consumes and 14 checks refused, 137 tryConsumes answered false)
      for (const what of ["consume refused", "check refused", "tryConsume false"])
        expect(seen.get(what), what).toBeGreaterThan(10)
    })
  )
})
