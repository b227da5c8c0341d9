import * as fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { PasswordHasher } from "@veche/auth"
import { ConfigProvider, Duration, Effect, Exit, Layer, Redacted, Scope } from "effect"
import * as Argon2PasswordHasher from "../src/Argon2PasswordHasher.ts"
import * as HashThreads from "../src/HashThreads.ts"

const pw = (s: string) => Redacted.make(s)
const service = (options?: Argon2PasswordHasher.Options) => Argon2PasswordHasher.make(options)
const real = service()
const fast = service({ params: Argon2PasswordHasher.TEST_PARAMS })

const header = (phc: string) => phc.split("$").slice(0, 4).join("$")

/** This process's worker threads (Linux: Node names them `WorkerThread`), the hash threads among them. */
const workerThreads = (): number =>
  fs.readdirSync("/proc/self/task").filter((task) => {
    try {
      return fs.readFileSync(`/proc/self/task/${task}/comm`, "utf8").trim() === "WorkerThread"
    } catch {
      return false // the thread ended meanwhile
    }
  }).length

describe("Argon2PasswordHasher", () => {
  it.effect("hashes to an argon2id PHC string with the default parameters, salted afresh each time", () =>
    Effect.gen(function* () {
      const hasher = yield* real
      const a = yield* hasher.hash(pw("correct horse battery"))
      const b = yield* hasher.hash(pw("correct horse battery"))
      expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
      expect(a).not.toBe(b)
      expect(Argon2PasswordHasher.DEFAULT_PARAMS).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 })
    })
  )

  it.effect("verifies the right password and refuses a wrong one", () =>
    Effect.gen(function* () {
      const hasher = yield* real
      const phc = yield* hasher.hash(pw("correct horse battery"))
      expect(yield* hasher.verify(phc, pw("correct horse battery"))).toEqual({ valid: true, needsRehash: false })
      expect(yield* hasher.verify(phc, pw("correct horse batterz"))).toEqual({ valid: false, needsRehash: false })
    })
  )

  it.effect("checks passwords exactly as typed: spaces and Unicode forms are not normalised", () =>
    Effect.gen(function* () {
      const hasher = yield* fast
      const phc = yield* hasher.hash(pw("pässwörd1"))
      expect((yield* hasher.verify(phc, pw("pässwörd1"))).valid).toBe(true)
      expect((yield* hasher.verify(phc, pw("pässwörd1 "))).valid).toBe(false)
      expect((yield* hasher.verify(phc, pw(" pässwörd1"))).valid).toBe(false)
      expect((yield* hasher.verify(phc, pw("PÄSSWÖRD1"))).valid).toBe(false)
      // The same text in NFD (base letter + combining diaeresis) is a different password.
      expect((yield* hasher.verify(phc, pw("pässwörd1".normalize("NFD")))).valid).toBe(false)
      const spaced = yield* hasher.hash(pw("  secret  "))
      expect((yield* hasher.verify(spaced, pw("  secret  "))).valid).toBe(true)
      expect((yield* hasher.verify(spaced, pw("secret"))).valid).toBe(false)
    })
  )

  it.effect("caps passwords at 1024 UTF-8 bytes, not characters", () =>
    Effect.gen(function* () {
      const hasher = yield* fast
      const phc = yield* hasher.hash(pw("a".repeat(1024)))
      expect((yield* hasher.verify(phc, pw("a".repeat(1024)))).valid).toBe(true)
      // 256 four-byte emoji are exactly 1024 bytes (512 UTF-16 units); one more is over.
      yield* hasher.hash(pw("😀".repeat(256)))
      const tooLong = [pw("a".repeat(1025)), pw("😀".repeat(257)), pw("é".repeat(513))]
      for (const password of tooLong) {
        expect(yield* Effect.flip(hasher.hash(password))).toEqual(
          new PasswordHasher.PasswordTooLong({ maxBytes: 1024 })
        )
        expect((yield* Effect.flip(hasher.verify(phc, password)))._tag).toBe("PasswordTooLong")
        expect((yield* Effect.flip(hasher.verifyDummy(password)))._tag).toBe("PasswordTooLong")
      }
    })
  )

  it.effect("asks for a rehash when the stored hash was made with other parameters", () =>
    Effect.gen(function* () {
      const production = yield* real
      const cheap = yield* fast
      const old = yield* cheap.hash(pw("correct horse battery"))
      expect(header(old)).toBe("$argon2id$v=19$m=1024,t=1,p=1")
      // The parameters travel in the PHC string, so the production hasher verifies test hashes.
      expect(yield* production.verify(old, pw("correct horse battery"))).toEqual({ valid: true, needsRehash: true })
      // No rehash can follow a wrong password.
      expect(yield* production.verify(old, pw("wrong horse battery"))).toEqual({ valid: false, needsRehash: false })
      // Only one parameter differing is enough.
      const moreTime = yield* service({ params: { ...Argon2PasswordHasher.DEFAULT_PARAMS, timeCost: 3 } })
      const t3 = yield* moreTime.hash(pw("correct horse battery"))
      expect(header(t3)).toBe("$argon2id$v=19$m=19456,t=3,p=1")
      expect(yield* production.verify(t3, pw("correct horse battery"))).toEqual({ valid: true, needsRehash: true })
      expect(yield* moreTime.verify(t3, pw("correct horse battery"))).toEqual({ valid: true, needsRehash: false })
    })
  )

  it.effect("treats a stored hash that is not a PHC string as a defect, not a wrong password", () =>
    Effect.gen(function* () {
      const hasher = yield* fast
      for (const stored of ["", "plain", "$2b$10$abcdefghijklmnopqrstuv", "$argon2id$v=19$m=1024,t=1,p=1$c2FsdA"]) {
        const exit = yield* Effect.exit(hasher.verify(stored, pw("whatever1")))
        expect(Exit.hasDies(exit)).toBe(true)
      }
    })
  )

  it.effect("verifyDummy answers invalid, even for the dummy's own password", () =>
    Effect.gen(function* () {
      const hasher = yield* fast
      expect(yield* hasher.verifyDummy(pw("correct horse battery"))).toEqual({ valid: false, needsRehash: false })
      expect(yield* hasher.verifyDummy(pw("veche-dummy-password"))).toEqual({ valid: false, needsRehash: false })
    })
  )

  it.live("an unknown account (dummy verify) costs about what a wrong password costs", () =>
    Effect.gen(function* () {
      const hasher = yield* real
      const phc = yield* hasher.hash(pw("correct horse battery"))
      const wrong = hasher.verify(phc, pw("wrong horse battery"))
      const dummy = hasher.verifyDummy(pw("wrong horse battery"))
      yield* wrong
      yield* dummy // warm up both paths
      const ms = (effect: typeof wrong) => Effect.map(Effect.timed(effect), ([d]) => Duration.toMillis(d))
      const wrongTimes: Array<number> = []
      const dummyTimes: Array<number> = []
      // Interleaved, so a slow moment of the machine hits both series alike.
      for (let i = 0; i < 7; i++) {
        wrongTimes.push(yield* ms(wrong))
        dummyTimes.push(yield* ms(dummy))
      }
      const median = (xs: Array<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0
      const ratio = median(dummyTimes) / median(wrongTimes)
      expect(ratio).toBeGreaterThan(0.5)
      expect(ratio).toBeLessThan(2)
    })
  )

  it.live("bounds the native calls in flight to the configured concurrency", () =>
    Effect.gen(function* () {
      const inFlightPeak = (concurrency: number) =>
        Effect.gen(function* () {
          let inFlight = 0
          let peak = 0
          const counting: Argon2PasswordHasher.Argon2Backend = {
            hash: (password, params) => {
              peak = Math.max(peak, ++inFlight)
              return Argon2PasswordHasher.nativeBackend.hash(password, params).finally(() => inFlight--)
            },
            verify: (phc, password) => {
              peak = Math.max(peak, ++inFlight)
              return Argon2PasswordHasher.nativeBackend.verify(phc, password).finally(() => inFlight--)
            }
          }
          const hasher = yield* service({ concurrency, backend: counting })
          const phc = yield* hasher.hash(pw("correct horse battery"))
          const results = yield* Effect.all(
            Array.from({ length: 8 }, (_, i) =>
              i % 2 === 0 ? hasher.verify(phc, pw(`wrong ${i}`)) : hasher.verifyDummy(pw(`wrong ${i}`))
            ),
            { concurrency: "unbounded" }
          )
          expect(results.every((r) => !r.valid)).toBe(true)
          expect(inFlight).toBe(0)
          return peak
        })
      expect(yield* inFlightPeak(1)).toBe(1)
      // The counter does see parallel calls when the bound allows them.
      const peak3 = yield* inFlightPeak(3)
      expect(peak3).toBeGreaterThan(1)
      expect(peak3).toBeLessThanOrEqual(3)
    })
  )

  it.live("keeps as many calls in flight as its backend asks: two a hash thread", () =>
    Effect.gen(function* () {
      const threads = HashThreads.make(2)
      yield* Effect.addFinalizer(() => Effect.promise(() => threads.close()))
      let inFlight = 0
      let peak = 0
      const counting: Argon2PasswordHasher.Argon2Backend = {
        permits: threads.permits,
        hash: (password, params) => threads.hash(password, params),
        verify: (phc, password) => {
          peak = Math.max(peak, ++inFlight)
          return threads.verify(phc, password).finally(() => inFlight--)
        }
      }
      const hasher = yield* service({ concurrency: 2, backend: counting })
      const phc = yield* hasher.hash(pw("correct horse battery"))
      // ≈10 ms a verify: the first four are all handed over before any answers
      const results = yield* Effect.all(
        Array.from({ length: 8 }, (_, i) => hasher.verify(phc, pw(`wrong ${i}`))),
        { concurrency: "unbounded" }
      )
      expect(results.every((r) => !r.valid)).toBe(true)
      expect(peak).toBe(4)
    })
  )

  it.live.skipIf(process.platform !== "linux")(
    "starts its hash threads at the first hash, not when built, and stops them with its scope",
    () =>
      Effect.gen(function* () {
        const before = workerThreads()
        const scope = yield* Scope.make()
        const hasher = yield* Argon2PasswordHasher.make({
          concurrency: 3,
          params: Argon2PasswordHasher.TEST_PARAMS
        }).pipe(Scope.provide(scope))
        // built: the dummy hash made on libuv's pool, no thread started
        expect(workerThreads()).toBe(before)
        const phc = yield* hasher.hash(pw("correct horse battery"))
        expect(workerThreads()).toBe(before + 3)
        expect((yield* hasher.verify(phc, pw("correct horse battery"))).valid).toBe(true)
        yield* Scope.close(scope, Exit.void)
        expect(workerThreads()).toBe(before)
      })
  )

  it.effect("refuses a concurrency that is not a positive integer", () =>
    Effect.gen(function* () {
      for (const concurrency of [0, -1, 1.5, Number.NaN]) {
        expect(Exit.hasDies(yield* Effect.exit(service({ concurrency })))).toBe(true)
      }
    })
  )

  it.effect("layerTest hashes with the cheap test parameters", () =>
    Effect.gen(function* () {
      const hasher = yield* PasswordHasher.PasswordHasher
      const phc = yield* hasher.hash(pw("correct horse battery"))
      expect(header(phc)).toBe("$argon2id$v=19$m=1024,t=1,p=1")
      expect(yield* hasher.verify(phc, pw("correct horse battery"))).toEqual({ valid: true, needsRehash: false })
    }).pipe(Effect.provide(Argon2PasswordHasher.layerTest))
  )

  it.effect("layerConfig reads SERVICE_PASSWORD_HASH_CONCURRENCY and refuses bad values", () =>
    Effect.gen(function* () {
      const withEnv = (env: Record<string, string>) =>
        Layer.build(Argon2PasswordHasher.layerConfig).pipe(
          Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))),
          Effect.scoped,
          Effect.exit
        )
      expect(Exit.isSuccess(yield* withEnv({}))).toBe(true)
      expect(Exit.isSuccess(yield* withEnv({ SERVICE_PASSWORD_HASH_CONCURRENCY: "3" }))).toBe(true)
      expect(Exit.isFailure(yield* withEnv({ SERVICE_PASSWORD_HASH_CONCURRENCY: "0" }))).toBe(true)
      expect(Exit.isFailure(yield* withEnv({ SERVICE_PASSWORD_HASH_CONCURRENCY: "two" }))).toBe(true)
    })
  )
})
