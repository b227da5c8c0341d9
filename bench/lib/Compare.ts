/**
 * Measures a scenario: a warm-up, then repetitions that alternate Veche and its floor so drift on a
 * shared machine hits both alike; medians are reported with the spread. A scenario without a floor
 * is measured the same way on its own.
 */
import * as Load from "./Load.ts"

/** One side of a scenario: a measurement lasting `seconds`. */
export type Side = (seconds: number) => Promise<Load.LoadResult>

export interface Summary {
  /** Medians over the repetitions. */
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** The lowest and highest req/s of the repetitions. */
  readonly spread: readonly [number, number]
}

export interface Row {
  readonly scenario: string
  readonly veche: Summary
  readonly floor: Summary | null
}

export interface Timing {
  readonly seconds: number
  readonly warmup: number
  readonly reps: number
}

const summary = (results: ReadonlyArray<Load.LoadResult>): Summary => ({
  rps: Load.median(results.map((r) => r.rps)),
  p50Ms: Load.median(results.map((r) => r.p50Ms)),
  p99Ms: Load.median(results.map((r) => r.p99Ms)),
  spread: [Math.min(...results.map((r) => r.rps)), Math.max(...results.map((r) => r.rps))]
})

export const measure = async (scenario: string, timing: Timing, veche: Side, floor?: Side): Promise<Row> => {
  await veche(timing.warmup)
  if (floor !== undefined) await floor(timing.warmup)
  const ours: Array<Load.LoadResult> = []
  const theirs: Array<Load.LoadResult> = []
  const rps = (results: ReadonlyArray<Load.LoadResult>) => results.at(-1)?.rps.toFixed(0)
  for (let rep = 0; rep < timing.reps; rep++) {
    ours.push(await veche(timing.seconds))
    if (floor !== undefined) theirs.push(await floor(timing.seconds))
    const floorText = floor === undefined ? "" : `, floor ${rps(theirs)} req/s`
    process.stderr.write(`  ${scenario}: rep ${rep + 1}/${timing.reps} veche ${rps(ours)} req/s${floorText}\n`)
  }
  // A side answering errors would be measured doing something else: refuse the run instead.
  for (const [side, results] of [
    ["Veche", ours],
    ["the floor", theirs]
  ] as const) {
    const failures = results.reduce((n, r) => n + r.errors + r.non2xx, 0)
    if (failures > 0) throw new Error(`${scenario}: ${failures} failed or non-2xx answers from ${side}`)
  }
  return { scenario, veche: summary(ours), floor: floor === undefined ? null : summary(theirs) }
}
