/**
 * Keeps each Moscow day's online peak: every five minutes it reads how many users are online (OnlineNow)
 * and raises the day's `peak_online` tally when higher. The statistics read the rollup, so a peak
 * reached while nobody looked is still shown. Every node samples; the store keeps the maximum, so
 * several samplers agree.
 */
import { Tallies } from "@veche/platform"
import { DateTime, Duration, Effect, Layer, Schedule } from "effect"
import { OnlineNow } from "./StatsSources.ts"

// Five minutes, not one: every test that moves a host's clock by days runs each tick.
export const INTERVAL = Duration.minutes(5)

export const layer: Layer.Layer<never, never, OnlineNow> = Layer.effectDiscard(
  Effect.gen(function* () {
    const online = yield* OnlineNow
    const tallies = yield* Tallies.Tallies
    const sample = Effect.gen(function* () {
      yield* tallies.peak(yield* online.now, yield* DateTime.now)
    }).pipe(Effect.catchCause((cause) => Effect.logWarning("online peak sample failed", cause)))
    yield* Effect.forkScoped(Effect.repeat(sample, Schedule.spaced(INTERVAL)))
  })
)
