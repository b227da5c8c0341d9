/** The bench's outputs: the printed table and the rows of bench/results.json. */
import type { Row } from "./Compare.ts"

/** What a scenario must reach; a scenario with neither bound is reported, not judged. */
export interface Target {
  readonly minRatio?: number
  /** Veche's p99 at most the floor's in the same run (issue 22's `@me` goal). */
  readonly p99AtMostFloor?: boolean
  readonly note?: string
}

export const ratio = (row: Row): number | null =>
  row.floor === null ? null : Number((row.veche.rps / row.floor.rps).toFixed(3))

const describe = (target: Target): string =>
  [
    target.minRatio === undefined ? [] : [`ratio >= ${target.minRatio.toFixed(2)}`],
    target.p99AtMostFloor === true ? ["p99 <= the floor's"] : [],
    target.note === undefined ? [] : [target.note]
  ]
    .flat()
    .join(", ")

/** "met" or "NOT met", judged on the medians; empty when there is nothing to judge. */
const verdict = (row: Row, target: Target): string => {
  const r = ratio(row)
  const ratioOk = target.minRatio === undefined || (r !== null && r >= target.minRatio)
  const p99Ok = target.p99AtMostFloor !== true || (row.floor !== null && row.veche.p99Ms <= row.floor.p99Ms)
  if (target.minRatio === undefined && target.p99AtMostFloor !== true) return ""
  return ratioOk && p99Ok ? " (met)" : " (NOT met)"
}

/** Issue 22's goals for the reference server's RSS in MB: idle, and after the bench's load. */
export const MEMORY_GOAL = { idleMb: 120, loadedMb: 200 } as const

/** The memory row's target column, judged like the others. */
export const memoryTarget = (idleMb: number, loadedMb: number): string => {
  const met = idleMb <= MEMORY_GOAL.idleMb && loadedMb <= MEMORY_GOAL.loadedMb
  return `idle <= ${MEMORY_GOAL.idleMb} MB, loaded <= ${MEMORY_GOAL.loadedMb} MB${met ? " (met)" : " (NOT met)"}`
}

const spread = (s: readonly [number, number]) => s.map(Math.round).join("-")

export const header = [
  "| scenario | Veche req/s | floor req/s (same run) | ratio | p50 ms | p99 ms | floor p50 / p99 ms | server CPU µs/request, Veche / floor (floor ÷ Veche) | target |",
  "|---|---|---|---|---|---|---|---|---|"
]

/** The floor's CPU per request over Veche's: the req/s ratio a machine with cores to spare would show. */
export const cpuRatio = (row: Row): number | null =>
  row.floor?.cpuUsPerRequest === undefined || row.veche.cpuUsPerRequest === undefined
    ? null
    : Number((row.floor.cpuUsPerRequest / row.veche.cpuUsPerRequest).toFixed(3))

const cpu = (row: Row): string => {
  const ours = row.veche.cpuUsPerRequest
  if (ours === undefined) return "—"
  const theirs = row.floor?.cpuUsPerRequest
  return theirs === undefined ? `${ours}` : `${ours} / ${theirs} (${cpuRatio(row)})`
}

/** One table line; `extra` follows the ratio (the limiter rows' added time). */
export const line = (row: Row, target: Target, extra = ""): string => {
  const floor = row.floor
  const floorRps = floor === null ? "—" : `${Math.round(floor.rps)} [${spread(floor.spread)}]`
  const floorLatency = floor === null ? "—" : `${floor.p50Ms} / ${floor.p99Ms}`
  return `| ${row.scenario} | ${Math.round(row.veche.rps)} [${spread(row.veche.spread)}] | ${floorRps} | ${ratio(row) ?? "—"}${extra} | ${row.veche.p50Ms} | ${row.veche.p99Ms} | ${floorLatency} | ${cpu(row)} | ${describe(target)}${verdict(row, target)} |`
}

/** The row as bench/results.json keeps it; no floor gives null floor_rps and ratio. */
export const result = (row: Row) => ({
  scenario: row.scenario,
  veche_rps: Math.round(row.veche.rps),
  floor_rps: row.floor === null ? null : Math.round(row.floor.rps),
  ratio: ratio(row),
  p50_ms: row.veche.p50Ms,
  p99_ms: row.veche.p99Ms,
  veche_cpu_us_per_request: row.veche.cpuUsPerRequest ?? null,
  floor_cpu_us_per_request: row.floor?.cpuUsPerRequest ?? null,
  cpu_ratio: cpuRatio(row)
})
