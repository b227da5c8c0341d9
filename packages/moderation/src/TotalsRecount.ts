/**
 * Keeps the statistics' running totals (users, erased users, bound e-mail addresses, guilds) true to
 * the tables they count. Each total is moved by a bump after the write it counts, outside that
 * write's transaction: a crash between the two, or a bump that failed (logged, never failing the
 * write), leaves it off. Every node asks the store every ten minutes; the store recounts at most
 * once an hour across all nodes (its own record of the last run, claimed by one node) and answers
 * what it corrected, logged here.
 */
import { Tallies } from "@veche/platform"
import { DateTime, Duration, Effect, Layer, Schedule } from "effect"

export const EVERY = Duration.hours(1)
// Ten minutes between asks: a tick on the hour can miss a run that finished a moment later.
export const INTERVAL = Duration.minutes(10)

export const layer: Layer.Layer<never> = Layer.effectDiscard(
  Effect.gen(function* () {
    const tallies = yield* Tallies.Tallies
    const tick = Effect.gen(function* () {
      const corrected = yield* tallies.recount(yield* DateTime.now, EVERY)
      if (corrected !== null && corrected.length > 0) {
        yield* Effect.logWarning("statistics: running totals recounted", corrected)
      }
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("statistics: recounting the running totals failed", cause)))
    yield* Effect.forkScoped(Effect.repeat(tick, Schedule.spaced(INTERVAL)))
  })
)
