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

const compare = async (
  scenario: string,
  target: string,
  route: string,
  veche: Processes.Running & { readonly base: string },
  floor: Processes.Running & { readonly base: string }
): Promise<Row> => {
  const options = { connections: CONNECTIONS, seconds: SECONDS }
  await Load.run(`${veche.base}${route}`, { ...options, seconds: WARMUP })
  await Load.run(`${floor.base}${route}`, { ...options, seconds: WARMUP })
  const ours: Array<Load.LoadResult> = []
  const theirs: Array<Load.LoadResult> = []
  for (let rep = 0; rep < REPS; rep++) {
    ours.push(await Load.run(`${veche.base}${route}`, options))
    theirs.push(await Load.run(`${floor.base}${route}`, options))
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

const main = async () => {
  const vechePort = await Processes.freePort()
  const floorPort = await Processes.freePort()
  const veche = await Processes.start(
    "veche",
    path.join(ROOT, "adapters/node-server/src/bin.ts"),
    {
      PORT: String(vechePort),
      HOST: "127.0.0.1",
      SERVICE_ENV: "prod",
      SERVICE_ACCESS_LOG: "true",
      SERVICE_DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL ?? ""
    },
    `http://127.0.0.1:${vechePort}/api/v10/version`
  )
  const floor = await Processes.start(
    "floor",
    path.join(ROOT, "bench/floors/version.ts"),
    { PORT: String(floorPort) },
    `http://127.0.0.1:${floorPort}/api/v10/version`
  )
  const idleVeche = await veche.rssMb()
  const idleFloor = await floor.rssMb()
  try {
    const rows: Array<Row> = []
    rows.push(
      await compare(
        "GET /api/v10/version",
        "ratio >= 0.80",
        "/api/v10/version",
        { ...veche, base: `http://127.0.0.1:${vechePort}` },
        { ...floor, base: `http://127.0.0.1:${floorPort}` }
      )
    )
    const loadedVeche = await veche.rssMb()
    const loadedFloor = await floor.rssMb()

    console.log(
      `\nVeche bench: ${CONNECTIONS} connections, ${SECONDS} s x ${REPS} alternating reps (median, [min-max])\n`
    )
    console.log("| scenario | Veche req/s | floor req/s (same run) | ratio | p50 ms | p99 ms | target |")
    console.log("|---|---|---|---|---|---|---|")
    for (const r of rows) {
      console.log(
        `| ${r.scenario} | ${r.veche_rps} [${r.veche_rps_spread.map(Math.round).join("-")}] | ${r.floor_rps} [${r.floor_rps_spread.map(Math.round).join("-")}] | ${r.ratio} | ${r.p50_ms} | ${r.p99_ms} | ${r.target} |`
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
    writeFileSync(
      path.join(ROOT, "bench/results.json"),
      `${JSON.stringify([...results, { scenario: "memory", veche_idle_mb: idleVeche, veche_loaded_mb: loadedVeche, floor_idle_mb: idleFloor, floor_loaded_mb: loadedFloor }], null, 2)}\n`
    )
    console.log("\nwritten: bench/results.json")
  } finally {
    await veche.stop()
    await floor.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
