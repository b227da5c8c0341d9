/**
 * A probe for `bench/me-pair.ts` (`ME_PROBE=bench/probes/alloc-probe.cjs`, BENCH_REPS=3), preloaded
 * into a server with `-r`: it counts the requests the server saw (diagnostics channel
 * `http.server.request.start`) and samples every allocation, collected objects too (`--heap-prof`
 * keeps only what is still alive, see docs/traps.md). The first SIGUSR2 starts the sampling, each
 * later one prints bytes per request since the one before (to stderr) and writes the profile of that
 * slice to `$ALLOC_PROBE_DIR/alloc-<pid>-<n>.heapprofile` (DevTools' Memory tab reads it), its top
 * allocating functions printed too.
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
session.connect()
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

process.on("SIGUSR2", () => {
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
