import { expect, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Ref } from "effect"
import { TestClock } from "effect/testing"
import { OAuthRepo, type Swept } from "../src/OAuthRepo.ts"
import { BATCH, OAuthSweep, SETTLE } from "../src/OAuthSweep.ts"

/** A store whose sweep records its cutoffs and answers full batches `full` times. */
const recording = (full: number) =>
  Effect.gen(function* () {
    const cutoffs = yield* Ref.make<ReadonlyArray<DateTime.Utc>>([])
    const answered = yield* Ref.make(0)
    const memory = yield* Effect.provide(Effect.service(OAuthRepo), OAuthRepo.layerMemory)
    const repo = OAuthRepo.of({
      ...memory,
      sweep: (cutoff) =>
        Effect.gen(function* () {
          yield* Ref.update(cutoffs, (all) => [...all, cutoff])
          const n = yield* Ref.getAndUpdate(answered, (k) => k + 1)
          const swept: Swept = { codes: n < full ? BATCH : 0, grants: 0, accessTokens: 0 }
          return swept
        })
    })
    return { cutoffs, layer: Layer.succeed(OAuthRepo, repo) }
  })

it.effect("a round sweeps what ended SETTLE ago, in batches until a short one, and again each interval", () =>
  Effect.gen(function* () {
    const { cutoffs, layer } = yield* recording(2)
    yield* Effect.gen(function* () {
      const sweeper = yield* OAuthSweep
      const now = yield* DateTime.now
      // let the worker's first round run: two full batches, then a short one
      yield* TestClock.adjust("1 millis")
      expect((yield* Ref.get(cutoffs)).map((c) => DateTime.toEpochMillis(c))).toEqual(
        Array.from({ length: 3 }, () => DateTime.toEpochMillis(DateTime.subtractDuration(now, SETTLE)))
      )
      yield* TestClock.adjust("1 hour")
      expect(yield* Ref.get(cutoffs)).toHaveLength(4)
      expect(yield* sweeper.sweep).toEqual({ codes: 0, grants: 0, accessTokens: 0 })
    }).pipe(Effect.provide(OAuthSweep.layer().pipe(Layer.provide(layer))), Effect.scoped)
  })
)
