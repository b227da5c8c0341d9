/**
 * A probe for `bench/me-pair.ts` (`ME_PROBE=bench/probes/alloc-probe.cjs`, BENCH_REPS=3), preloaded
 * into a server with `-r`: it counts the requests the server saw (diagnostics channel
 * `http.server.request.start`) and samples every allocation, collected objects too (`--heap-prof`
 * keeps only what is still alive, see docs/traps.md). The first SIGUSR2 starts the sampling, each
 * later one prints bytes per request since the one before (to stderr) and writes the profile of that
 * slice to `$ALLOC_PROBE_DIR/alloc-<pid>-<n>.heapprofile` (DevTools' Memory tab reads it), its top
 * allocating functions printed too.
 *
 * ALLOC_PROBE_MODE=gc: no sampling (next to no overhead), exact bytes only: `v8.GCProfiler` reports
 * the heap before and after each collection, so what was allocated is the growth between
 * collections, summed (plus the growth since the last one).
 */
const { Session } = require("node:inspector")
const diagnostics = require("node:diagnostics_channel")
const fs = require("node:fs")
const path = require("node:path")

const DIR = process.env.ALLOC_PROBE_DIR ?? require("node:os").tmpdir()
const INTERVAL = Number(process.env.ALLOC_PROBE_INTERVAL ?? 1024)
let requests = 0
diagnostics.subscribe("http.server.request.start", () => {
  requests++
})

const session = new Session()
if (process.env.ALLOC_PROBE_MODE !== "gc") session.connect()
let sampling = false
let slice = 0

const start = () => {
  requests = 0
  session.post("HeapProfiler.startSampling", {
    samplingInterval: INTERVAL,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true
  })
  sampling = true
}

/** Self bytes per function (name and place), largest first. */
const tops = (profile) => {
  const byFrame = new Map()
  const walk = (node) => {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame
    const key = `${functionName || "(anonymous)"} ${path.basename(url)}:${lineNumber + 1}:${columnNumber + 1}`
    const self = node.selfSize
    if (self > 0) byFrame.set(key, (byFrame.get(key) ?? 0) + self)
    for (const child of node.children) walk(child)
  }
  walk(profile.head)
  return [...byFrame.entries()].sort((a, b) => b[1] - a[1])
}

if (process.env.ALLOC_PROBE_MODE === "gc") {
  const v8 = require("node:v8")
  let profiler
  let usedAtStart = 0
  process.on("SIGUSR2", () => {
    if (profiler === undefined) {
      requests = 0
      usedAtStart = process.memoryUsage().heapUsed
      profiler = new v8.GCProfiler()
      profiler.start()
      return
    }
    const seen = requests
    const usedAtEnd = process.memoryUsage().heapUsed
    const { statistics } = profiler.stop()
    let allocated = 0
    let previousAfter = usedAtStart
    for (const gc of statistics) {
      allocated += gc.beforeGC.heapStatistics.usedHeapSize - previousAfter
      previousAfter = gc.afterGC.heapStatistics.usedHeapSize
    }
    allocated += usedAtEnd - previousAfter
    const kinds = {}
    for (const gc of statistics) kinds[gc.gcType] = (kinds[gc.gcType] ?? 0) + 1
    process.stderr.write(
      `[alloc ${process.pid}] ${seen} requests, ${seen === 0 ? 0 : (allocated / seen / 1024).toFixed(2)} KB a request allocated (exact); collections ${JSON.stringify(kinds)}\n`
    )
    profiler = undefined
  })
}

process.on("SIGUSR2", () => {
  if (process.env.ALLOC_PROBE_MODE === "gc") return
  if (!sampling) return start()
  const seen = requests
  session.post("HeapProfiler.stopSampling", (error, result) => {
    if (error) return process.stderr.write(`[alloc ${process.pid}] ${error.message}\n`)
    const profile = result.profile
    const frames = tops(profile)
    // the tree's self sizes are scaled by the sampling interval (an estimate of all bytes)
    const total = frames.reduce((sum, [, bytes]) => sum + bytes, 0)
    const file = path.join(DIR, `alloc-${process.pid}-${++slice}.heapprofile`)
    fs.writeFileSync(file, JSON.stringify(profile))
    const perRequest = seen === 0 ? 0 : total / seen
    const lines = frames
      .slice(0, Number(process.env.ALLOC_PROBE_TOP ?? 40))
      .map(([key, bytes]) => `  ${(bytes / Math.max(seen, 1)).toFixed(0).padStart(6)} B/req  ${key}`)
    process.stderr.write(
      `[alloc ${process.pid}] ${seen} requests, ${(perRequest / 1024).toFixed(1)} KB a request sampled; ${file}\n${lines.join("\n")}\n`
    )
    // a new slice from here (the inspector session stays; disconnecting in a callback stops the loop)
    setImmediate(start)
  })
})
