/**
 * `node bench/idle.ts`: the reference server's idle RSS as `pnpm bench` reads it (the bench's `veche`
 * server: prod, access log on, limits unreachable, the schema already migrated by an earlier server,
 * no Redis; RSS read a few seconds after it answered), on several processes of two builds or
 * settings, alternating which side starts first. A single process says little: the reading moves
 * with where the start's last allocation left the young generation.
 *
 *   IDLE_ROOT_A, IDLE_ROOT_B         the checkouts each side runs from (default: this one)
 *   IDLE_ENV_A, IDLE_ENV_B           JSON objects of extra environment variables per side (a null leaves
 *                                    one of `NodeFlags.NODE_ENV` out)
 *   IDLE_NODE_FLAGS_A, IDLE_NODE_FLAGS_B  JSON arrays of Node flags instead of `NodeFlags.NODE_FLAGS`
 *   IDLE_REPS (5)                    processes per side
 *   IDLE_SETTLE_SECONDS (5)          how long after the first answer RSS is read
 *   IDLE_PROBE=1                     also preload bench/probes/memory-probe.cjs, which prints the
 *                                    heap's breakdown to stderr when RSS is read (it changes RSS a little);
 *                                    with MEMORY_PROBE_SNAPSHOT_DIR also a heap snapshot of each server there
 *   DATABASE_URL                     as for the bench (else an embedded PostgreSQL)
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as NodeFlags from "../adapters/node-server/src/NodeFlags.ts"
import * as Database from "./lib/Database.ts"
import * as Processes from "./lib/Processes.ts"
import * as ServerEnv from "./lib/ServerEnv.ts"

const REPS = Number(process.env.IDLE_REPS ?? 5)
const SETTLE_MS = Number(process.env.IDLE_SETTLE_SECONDS ?? 5) * 1000
const PROBE = process.env.IDLE_PROBE === "1"
const ROOT = path.resolve(import.meta.dirname, "..")
const UNREACHABLE = { limit: 1_000_000_000, windowMs: 1_000 }

const rootOf = (side: string): string => path.resolve(process.env[`IDLE_ROOT_${side}`] ?? ROOT)
const envOf = (side: string): Record<string, string | null> => Processes.environment(process.env[`IDLE_ENV_${side}`])
const flagsOf = (side: string): ReadonlyArray<string> => {
  const own = process.env[`IDLE_NODE_FLAGS_${side}`]
  const condition = NodeFlags.WORKSPACE_FLAGS.slice(NodeFlags.NODE_FLAGS.length)
  const probe = PROBE ? ["-r", path.join(ROOT, "bench/probes/memory-probe.cjs")] : []
  const node = own === undefined ? NodeFlags.NODE_FLAGS : (JSON.parse(own) as Array<string>)
  return [...node, ...condition, ...probe]
}

const dataDir = mkdtempSync(path.join(tmpdir(), "veche-idle-"))
chmodSync(dataDir, 0o755)

const start = async (name: string, side: string, database: Database.Database) => {
  const port = await Processes.freePort()
  return Processes.start(
    name,
    path.join(rootOf(side), NodeFlags.WORKSPACE_BIN),
    Processes.withoutUnset({
      ...ServerEnv.referenceServer({ port, name, dataDir, database }),
      SERVICE_RATE_LIMITS: JSON.stringify({ version: UNREACHABLE, default: UNREACHABLE }),
      SERVICE_GLOBAL_RATE_LIMIT: "1000000000",
      ...envOf(side)
    }),
    `http://127.0.0.1:${port}/api/v10/version`,
    flagsOf(side)
  )
}

/** RSS and its anonymous and file-backed parts, in MB, from /proc/<pid>/smaps_rollup. */
const memoryOf = (pid: number) => {
  const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0)
  const mb = (value: number) => Math.round(value / 102.4) / 10
  return { rss: mb(kb("Rss")), anon: mb(kb("Anonymous")), file: mb(kb("Rss") - kb("Anonymous")) }
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const main = async () => {
  const database = await Database.open(path.join(dataDir, "pg"))
  const rss: Record<string, Array<number>> = { A: [], B: [] }
  try {
    // The bench's first server migrates; the measured one finds the schema up to date.
    const migrator = await start("migrate", "A", database)
    await migrator.stop()
    for (let rep = 0; rep < REPS; rep++) {
      const order = rep % 2 === 0 ? ["A", "B"] : ["B", "A"]
      const servers: Array<{ side: string; server: Processes.Running }> = []
      for (const side of order) servers.push({ side, server: await start(`${side}${rep}`, side, database) })
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS))
      for (const { side, server } of servers) {
        const memory = memoryOf(server.pid)
        rss[side]?.push(memory.rss)
        console.log(`rep ${rep} ${side}: rss ${memory.rss} MB (anon ${memory.anon}, file ${memory.file})`)
        if (PROBE) process.kill(server.pid, "SIGUSR2")
      }
      // A heap snapshot takes seconds to write.
      const written = process.env.MEMORY_PROBE_SNAPSHOT_DIR === undefined ? 300 : 15_000
      if (PROBE) await new Promise((resolve) => setTimeout(resolve, written))
      for (const { server } of servers) await server.stop()
    }
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  const a = rss.A ?? []
  const b = rss.B ?? []
  const lower = a.filter((value, index) => value > (b[index] ?? Number.POSITIVE_INFINITY)).length
  console.log(`A median ${median(a)} MB [${a.join(", ")}]`)
  console.log(`B median ${median(b)} MB [${b.join(", ")}]`)
  console.log(`B lower than A in ${lower} of ${a.length} reps`)
}

await main()
