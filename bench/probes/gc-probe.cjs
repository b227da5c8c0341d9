/**
 * A probe for `bench/me-pair.ts` (`ME_PROBE=bench/probes/gc-probe.cjs`), preloaded into a server with
 * `-r`: on each SIGUSR2 it prints to stderr what the collector did since the last one (count, total
 * and longest pause of each kind), the event loop's delay (p99, max), the RSS and the sizes of the
 * young and old generations, then starts counting afresh. It tells a tail that is the collector's
 * from one that is not.
 */
const { PerformanceObserver, monitorEventLoopDelay, constants } = require("node:perf_hooks")
const v8 = require("node:v8")

const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
  [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak"
}
let pauses = {}
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = KINDS[entry.detail?.kind] ?? "other"
    pauses[kind] ??= { count: 0, totalMs: 0, maxMs: 0 }
    const seen = pauses[kind]
    seen.count++
    seen.totalMs += entry.duration
    seen.maxMs = Math.max(seen.maxMs, entry.duration)
  }
}).observe({ entryTypes: ["gc"] })

const delay = monitorEventLoopDelay({ resolution: 1 })
delay.enable()

const mb = (bytes) => (bytes / 1048576).toFixed(1)
const generations = () =>
  v8
    .getHeapSpaceStatistics()
    .filter((space) => space.space_name === "new_space" || space.space_name === "old_space")
    .map((space) => `${space.space_name} ${mb(space.space_used_size)}/${mb(space.space_size)} MB`)
    .join(", ")

process.on("SIGUSR2", () => {
  const gc = Object.entries(pauses)
    .map(([kind, s]) => `${kind} ${s.count}× ${s.totalMs.toFixed(0)} ms (max ${s.maxMs.toFixed(1)})`)
    .join(", ")
  process.stderr.write(
    `[probe ${process.pid}] gc: ${gc || "none"}; event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms; rss ${mb(process.memoryUsage().rss)} MB; ${generations()}\n`
  )
  pauses = {}
  delay.reset()
})
