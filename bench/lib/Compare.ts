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
  /** Median server CPU µs per request, when measured. */
  readonly cpuUsPerRequest: number | undefined
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
  cpuUsPerRequest: results.every((r) => r.cpuUsPerRequest !== undefined)
    ? Number(Load.median(results.map((r) => r.cpuUsPerRequest ?? 0)).toFixed(1))
    : undefined,
  spread: [Math.min(...results.map((r) => r.rps)), Math.max(...results.map((r) => r.rps))]
})

/**
 * A run with failed or non-2xx answers measured something else (refusals are cheap): the bench stops
 * at once, naming the scenario, the side and what was answered, rather than report a figure.
 */
const refuseFailures = (scenario: string, side: string, result: Load.LoadResult): Load.LoadResult => {
  if (result.errors + result.non2xx === 0) return result
  const statuses = Object.entries(result.statuses ?? {})
    .map(([code, count]) => `${code}: ${count}`)
    .join(", ")
  throw new Error(
    `${scenario}: ${side} answered ${result.non2xx} non-2xx and ${result.errors} failed requests` +
      ` (at ${result.rps.toFixed(0)} req/s; statuses ${statuses || "unknown"}); no figure reported`
  )
}

export const measure = async (scenario: string, timing: Timing, veche: Side, floor?: Side): Promise<Row> => {
  const ours: Array<Load.LoadResult> = []
  const theirs: Array<Load.LoadResult> = []
  const vecheRun = async (seconds: number) => refuseFailures(scenario, "Veche", await veche(seconds))
  const floorRun =
    floor === undefined
      ? undefined
      : async (seconds: number) => refuseFailures(scenario, "the floor", await floor(seconds))
  await vecheRun(timing.warmup)
  if (floorRun !== undefined) await floorRun(timing.warmup)
  const rps = (results: ReadonlyArray<Load.LoadResult>) => results.at(-1)?.rps.toFixed(0)
  for (let rep = 0; rep < timing.reps; rep++) {
    ours.push(await vecheRun(timing.seconds))
    if (floorRun !== undefined) theirs.push(await floorRun(timing.seconds))
    const floorText = floorRun === undefined ? "" : `, floor ${rps(theirs)} req/s`
    process.stderr.write(`  ${scenario}: rep ${rep + 1}/${timing.reps} veche ${rps(ours)} req/s${floorText}\n`)
  }
  return { scenario, veche: summary(ours), floor: floor === undefined ? null : summary(theirs) }
}
