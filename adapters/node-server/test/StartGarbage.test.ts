/** The one collection after start: it collects, and the event loop runs on afterwards. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as StartGarbage from "../src/StartGarbage.ts"

describe("StartGarbage", () => {
  it.effect("collects garbage left unreachable, and timers and I/O run after it", () =>
    Effect.gen(function* () {
      // ~40 MB of short-lived objects, then dropped: a full collection takes them
      let garbage: Array<{ readonly n: number; readonly s: string }> | undefined = Array.from(
        { length: 400_000 },
        (_, n) => ({ n, s: `item ${n}` })
      )
      const before = process.memoryUsage().heapUsed
      expect(garbage.length).toBe(400_000)
      garbage = undefined
      yield* StartGarbage.collect
      const after = process.memoryUsage().heapUsed
      expect(before - after).toBeGreaterThan(10_000_000)
      // A session disconnected inside its own callback would stop the loop here: a timer must fire.
      const fired = yield* Effect.promise(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 20)))
      expect(fired).toBe(true)
    })
  )
})
