/**
 * `node bench/me-pair.ts`: `GET /users/@me` on the reference server and on its floor
 * (bench/floors/me.ts), side by side with the same load generator (BENCH_LOAD=wrk for wrk), reps
 * alternating; prints req/s, p50/p99 and server CPU per request for each rep and the medians.
 * ME_PROBE=<file.cjs> preloads that file (`-r`) into both servers and sends each SIGUSR2 after each
 * rep (a probe that prints event-loop delay and GC pauses on SIGUSR2 can say where a tail comes from:
 * bench/probes/gc-probe.cjs).
 *
 *   ME_ROOT  the checkout the reference server runs from (default: this one)
 *   ME_NODE_FLAGS  JSON array replacing the server's NODE_FLAGS; ME_FLOOR_FLAGS the floor's (default [])
 *   BENCH_SECONDS (5) BENCH_REPS (6) BENCH_CONNECTIONS (50) BENCH_WARMUP_SECONDS (2), DATABASE_URL
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as NodeFlags from "../adapters/node-server/src/NodeFlags.ts"
import * as Accounts from "./lib/Accounts.ts"
import * as Database from "./lib/Database.ts"
import * as Load from "./lib/Load.ts"
import * as Processes from "./lib/Processes.ts"
import * as ServerEnv from "./lib/ServerEnv.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const REPS = Number(process.env.BENCH_REPS ?? 6)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const ROUTE = "/api/v10/users/@me"
const ROOT = path.resolve(import.meta.dirname, "..")
const SERVER_ROOT = path.resolve(process.env.ME_ROOT ?? ROOT)
const PROBE = process.env.ME_PROBE
const probeFlags = PROBE === undefined ? [] : ["-r", PROBE]
const serverFlags = [
  ...(process.env.ME_NODE_FLAGS === undefined
    ? NodeFlags.NODE_FLAGS
    : (JSON.parse(process.env.ME_NODE_FLAGS) as Array<string>)),
  ...probeFlags,
  ...NodeFlags.WORKSPACE_FLAGS.slice(NodeFlags.NODE_FLAGS.length)
]
const floorFlags = [...(JSON.parse(process.env.ME_FLOOR_FLAGS ?? "[]") as Array<string>), ...probeFlags]

const dataDir = mkdtempSync(path.join(tmpdir(), "veche-me-"))
chmodSync(dataDir, 0o755)

const main = async () => {
  const database = await Database.open(path.join(dataDir, "pg"))
  try {
    const port = await Processes.freePort()
    const veche = {
      ...(await Processes.start(
        "veche",
        path.join(SERVER_ROOT, NodeFlags.WORKSPACE_BIN),
        {
          ...ServerEnv.referenceServer({ port, name: "veche", dataDir, database }),
          SERVICE_ENV: "dev",
          SERVICE_ACCESS_LOG: process.env.ME_ACCESS_LOG ?? "true",
          SERVICE_RATE_LIMITS: JSON.stringify({ default: { limit: 1_000_000_000, windowMs: 1_000 } }),
          SERVICE_GLOBAL_RATE_LIMIT: "1000000000"
        },
        `http://127.0.0.1:${port}/api/v10/version`,
        serverFlags
      )),
      base: `http://127.0.0.1:${port}`
    }
    const floorPort = await Processes.freePort()
    const floor = {
      ...(await Processes.start(
        "floor",
        path.join(ROOT, "bench/floors/me.ts"),
        { PORT: String(floorPort), DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema },
        `http://127.0.0.1:${floorPort}/ready`,
        floorFlags
      )),
      base: `http://127.0.0.1:${floorPort}`
    }
    try {
      await Accounts.registerMany(veche.base, 1)
      const request = { headers: { authorization: `Bearer ${(await Accounts.login(veche.base)).access_token}` } }
      const measure = async (server: typeof veche, seconds: number) => {
        if (PROBE !== undefined) process.kill(server.pid, "SIGUSR2")
        const before = server.cpuMs()
        const result = await Load.run(`${server.base}${ROUTE}`, { connections: CONNECTIONS, seconds, ...request })
        const cpuUs = ((server.cpuMs() - before) * 1000) / (result.rps * seconds)
        if (result.errors + result.non2xx > 0)
          throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} failed`)
        if (PROBE !== undefined) process.kill(server.pid, "SIGUSR2")
        await new Promise((resolve) => setTimeout(resolve, 100))
        return { ...result, cpuUs }
      }
      await measure(veche, WARMUP)
      await measure(floor, WARMUP)
      type Measured = Load.LoadResult & { readonly cpuUs: number }
      const results: Record<"veche" | "floor", Array<Measured>> = { veche: [], floor: [] }
      for (let rep = 0; rep < REPS; rep++) {
        const order = rep % 2 === 0 ? [veche, floor] : [floor, veche]
        for (const server of order) {
          const r = await measure(server, SECONDS)
          ;(server === veche ? results.veche : results.floor).push(r)
          process.stderr.write(
            `  rep ${rep + 1} ${server.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50Ms} p99 ${r.p99Ms} ms, ${r.cpuUs.toFixed(1)} µs CPU/request\n`
          )
        }
      }
      const line = (name: "veche" | "floor") => {
        const rs = results[name]
        return `${name} ${Load.median(rs.map((r) => r.rps)).toFixed(0)} req/s, p50 ${Load.median(rs.map((r) => r.p50Ms))} p99 ${Load.median(rs.map((r) => r.p99Ms))} ms, ${Load.median(rs.map((r) => r.cpuUs)).toFixed(1)} µs CPU/request`
      }
      console.log(`${line("veche")}; ${line("floor")}`)
    } finally {
      await Promise.all([veche.stop(), floor.stop()])
    }
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

void Processes.runMain(main)
