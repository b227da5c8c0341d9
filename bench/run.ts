/**
 * `pnpm bench`: the hot paths as ratios to a bare floor measured in the same run, because absolute
 * figures on a shared machine drift. Each server runs in its own process; the load generator runs
 * here. Repetitions alternate Veche and floor so drift hits both alike; the median is reported with
 * the spread. Prints a table and writes bench/results.json.
 *
 *   BENCH_SECONDS (10)  BENCH_REPS (3)  BENCH_CONNECTIONS (50)  BENCH_WARMUP_SECONDS (3)
 *   DATABASE_URL: use this PostgreSQL instead of an embedded one in a temporary folder.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as Load from "./lib/Load.ts"
import * as Processes from "./lib/Processes.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const REPS = Number(process.env.BENCH_REPS ?? 3)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 3)
const ROOT = path.resolve(import.meta.dirname, "..")

interface Row {
  readonly scenario: string
  readonly veche_rps: number
  readonly floor_rps: number
  readonly ratio: number
  readonly p50_ms: number
  readonly p99_ms: number
  readonly veche_rps_spread: readonly [number, number]
  readonly floor_rps_spread: readonly [number, number]
  readonly target: string
}

const dataDir = mkdtempSync(path.join(tmpdir(), "veche-bench-"))
chmodSync(dataDir, 0o755) // as root, the embedded PostgreSQL runs as `postgres` and must enter it

const compare = async (scenario: string, target: string, vecheUrl: string, floorUrl: string): Promise<Row> => {
  const options = { connections: CONNECTIONS, seconds: SECONDS }
  await Load.run(vecheUrl, { ...options, seconds: WARMUP })
  await Load.run(floorUrl, { ...options, seconds: WARMUP })
  const ours: Array<Load.LoadResult> = []
  const theirs: Array<Load.LoadResult> = []
  for (let rep = 0; rep < REPS; rep++) {
    ours.push(await Load.run(vecheUrl, options))
    theirs.push(await Load.run(floorUrl, options))
    process.stderr.write(
      `  ${scenario}: rep ${rep + 1}/${REPS} veche ${ours.at(-1)?.rps.toFixed(0)} req/s, floor ${theirs.at(-1)?.rps.toFixed(0)} req/s\n`
    )
  }
  // A side answering errors would be measured doing something else: refuse the run instead.
  for (const [side, results] of [
    ["Veche", ours],
    ["the floor", theirs]
  ] as const) {
    const failures = results.reduce((n, r) => n + r.errors + r.non2xx, 0)
    if (failures > 0) throw new Error(`${scenario}: ${failures} failed or non-2xx answers from ${side}`)
  }
  const vecheRps = Load.median(ours.map((r) => r.rps))
  const floorRps = Load.median(theirs.map((r) => r.rps))
  const spread = (rs: ReadonlyArray<Load.LoadResult>) =>
    [Math.min(...rs.map((r) => r.rps)), Math.max(...rs.map((r) => r.rps))] as const
  return {
    scenario,
    veche_rps: Math.round(vecheRps),
    floor_rps: Math.round(floorRps),
    ratio: Number((vecheRps / floorRps).toFixed(3)),
    p50_ms: Load.median(ours.map((r) => r.p50Ms)),
    p99_ms: Load.median(ours.map((r) => r.p99Ms)),
    veche_rps_spread: spread(ours),
    floor_rps_spread: spread(theirs),
    target
  }
}

// Limits far above what the load generator can reach: the limiter does all its work, never refuses.
const UNREACHABLE_LIMITS = {
  SERVICE_RATE_LIMITS: JSON.stringify({ version: { limit: 1_000_000_000, windowMs: 1_000 } }),
  SERVICE_GLOBAL_RATE_LIMIT: "1000000000"
}
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"

const startVeche = async (name: string, env: Record<string, string>) => {
  const port = await Processes.freePort()
  const base = `http://127.0.0.1:${port}`
  const running = await Processes.start(
    name,
    path.join(ROOT, "adapters/node-server/src/bin.ts"),
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      SERVICE_ENV: "prod",
      SERVICE_ACCESS_LOG: "true",
      SERVICE_DATA_DIR: path.join(dataDir, name),
      DATABASE_URL: process.env.DATABASE_URL ?? "",
      REDIS_URL: "",
      ...env
    },
    `${base}/api/v10/version`
  )
  return { ...running, base }
}

/** Server time one request costs more: the difference of 1 / throughput. */
const addedServerMicros = (row: Row) => Number(((1 / row.veche_rps - 1 / row.floor_rps) * 1e6).toFixed(1))
/** What a client waits longer at this concurrency: connections / throughput, the mean latency. */
const addedLatencyMicros = (row: Row) => Math.round((CONNECTIONS / row.veche_rps - CONNECTIONS / row.floor_rps) * 1e6)

const main = async () => {
  const floorPort = await Processes.freePort()
  const floor = {
    ...(await Processes.start(
      "floor",
      path.join(ROOT, "bench/floors/version.ts"),
      { PORT: String(floorPort) },
      `http://127.0.0.1:${floorPort}/api/v10/version`
    )),
    base: `http://127.0.0.1:${floorPort}`
  }
  const veche = await startVeche("veche", UNREACHABLE_LIMITS)
  const limiterOff = await startVeche("limiter-off", { SERVICE_RATE_LIMITS_ENABLED: "false" })
  const limiterRedis = await startVeche("limiter-redis", { ...UNREACHABLE_LIMITS, REDIS_URL })
  const servers = [floor, veche, limiterOff, limiterRedis]
  const idleVeche = await veche.rssMb()
  const idleFloor = await floor.rssMb()
  try {
    const route = "/api/v10/version"
    const rows: Array<Row> = []
    rows.push(await compare("GET /api/v10/version", "ratio >= 0.80", `${veche.base}${route}`, `${floor.base}${route}`))
    const loadedVeche = await veche.rssMb()
    const loadedFloor = await floor.rssMb()
    const memoryLimiter = await compare(
      "rate limiter, memory store (vs limiting off)",
      "report added µs/request",
      `${veche.base}${route}`,
      `${limiterOff.base}${route}`
    )
    const redisLimiter = await compare(
      "rate limiter, Redis store (vs limiting off)",
      "report added µs/request",
      `${limiterRedis.base}${route}`,
      `${limiterOff.base}${route}`
    )
    rows.push(memoryLimiter, redisLimiter)

    console.log(
      `\nVeche bench: ${CONNECTIONS} connections, ${SECONDS} s x ${REPS} alternating reps (median, [min-max])\n`
    )
    console.log("| scenario | Veche req/s | floor req/s (same run) | ratio | p50 ms | p99 ms | target |")
    console.log("|---|---|---|---|---|---|---|")
    for (const r of rows) {
      const extra = r.scenario.startsWith("rate limiter")
        ? ` (+${addedServerMicros(r)} µs server time/request; +${addedLatencyMicros(r)} µs mean latency at ${CONNECTIONS} connections)`
        : ""
      console.log(
        `| ${r.scenario} | ${r.veche_rps} [${r.veche_rps_spread.map(Math.round).join("-")}] | ${r.floor_rps} [${r.floor_rps_spread.map(Math.round).join("-")}] | ${r.ratio}${extra} | ${r.p50_ms} | ${r.p99_ms} | ${r.target} |`
      )
    }
    console.log(
      `| memory (RSS) | idle ${idleVeche} MB, loaded ${loadedVeche} MB | idle ${idleFloor} MB, loaded ${loadedFloor} MB | | | | idle <= 150 MB, loaded <= 250 MB |`
    )
    const results = rows.map(({ scenario, veche_rps, floor_rps, ratio, p50_ms, p99_ms }) => ({
      scenario,
      veche_rps,
      floor_rps,
      ratio,
      p50_ms,
      p99_ms
    }))
    const memory = {
      scenario: "memory",
      veche_idle_mb: idleVeche,
      veche_loaded_mb: loadedVeche,
      floor_idle_mb: idleFloor,
      floor_loaded_mb: loadedFloor
    }
    const limiter = {
      scenario: "rate limiter added µs/request",
      memory_server_us: addedServerMicros(memoryLimiter),
      memory_latency_us: addedLatencyMicros(memoryLimiter),
      redis_server_us: addedServerMicros(redisLimiter),
      redis_latency_us: addedLatencyMicros(redisLimiter)
    }
    writeFileSync(path.join(ROOT, "bench/results.json"), `${JSON.stringify([...results, memory, limiter], null, 2)}\n`)
    console.log("\nwritten: bench/results.json")
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main().catch((error: unknown) => {
  console.error(error)
  Processes.killAll() // running children would keep this process alive
  process.exitCode = 1
})
