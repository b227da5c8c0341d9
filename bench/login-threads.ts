/**
 * `node bench/login-threads.ts`: where a login's CPU goes, by thread, in the reference server and in
 * the login written by hand (`floors/login.ts`), under the login row's load (`wrk` with
 * BENCH_LOAD=wrk, pinned as the bench pins). Both run at once on one database; the rounds alternate
 * them. Each round prints, per login: each kind of thread's CPU by name (`MainThread`,
 * `libuv-worker`: argon2id, `V8Worker`: the collector's and compiler's helpers) and PostgreSQL's
 * processes' (every client's: other work on the machine counts too). Run `pnpm build:js` first.
 *
 *   BENCH_REPS (3)  BENCH_SECONDS (10)  BENCH_CONNECTIONS (50)  DATABASE_URL
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as NodeFlags from "../adapters/node-server/src/NodeFlags.ts"
import * as Accounts from "./lib/Accounts.ts"
import * as Database from "./lib/Database.ts"
import * as Load from "./lib/Load.ts"
import * as Pinning from "./lib/Pinning.ts"
import * as Processes from "./lib/Processes.ts"
import * as ServerEnv from "./lib/ServerEnv.ts"

const REPS = Number(process.env.BENCH_REPS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const ROOT = path.resolve(import.meta.dirname, "..")
const ROUTE = "/api/v10/auth/login"

type Server = Processes.Running & { readonly base: string }

const dataDir = mkdtempSync(path.join(tmpdir(), "veche-login-threads-"))
chmodSync(dataDir, 0o755)

const measure = async (server: Server, seconds: number): Promise<string> => {
  Pinning.releaseLateThreads(server.pid)
  const threadsBefore = Processes.threadCpuMsByName(server.pid)
  const pgBefore = Processes.cpuMsOfAll("postgres")
  const result = await Load.run(`${server.base}${ROUTE}`, {
    connections: CONNECTIONS,
    seconds,
    method: "POST",
    perConnection: Accounts.loginConnection
  })
  if (result.errors + result.non2xx > 0)
    throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} failed`)
  const logins = result.rps * seconds
  const perLogin = (ms: number) => ((ms * 1000) / logins).toFixed(0)
  const threads = Processes.describeThreads(Processes.threadCpuUsPerRequest(server.pid, threadsBefore, logins))
  return `${server.name}: ${result.rps.toFixed(0)} logins/s; µs a login: ${threads}; PostgreSQL ${perLogin(Processes.cpuMsOfAll("postgres") - pgBefore)}`
}

const main = async () => {
  Pinning.use()
  const database = await Database.open(path.join(dataDir, "pg"))
  const servers: Array<Server> = []
  try {
    const port = await Processes.freePort()
    const veche: Server = {
      ...(await Processes.start(
        "veche",
        path.join(ROOT, NodeFlags.WORKSPACE_BIN),
        Processes.withoutUnset({
          ...ServerEnv.referenceServer({ port, name: "veche", dataDir, database }),
          SERVICE_ENV: "dev",
          SERVICE_RATE_LIMITS_ENABLED: "false"
        }),
        `http://127.0.0.1:${port}/api/v10/version`,
        NodeFlags.WORKSPACE_FLAGS
      )),
      base: `http://127.0.0.1:${port}`
    }
    servers.push(veche)
    await Accounts.registerMany(veche.base, CONNECTIONS)
    const handPort = await Processes.freePort()
    const byHand: Server = {
      ...(await Processes.start(
        "by hand",
        path.join(ROOT, "bench/floors/login.ts"),
        { PORT: String(handPort), DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema },
        `http://127.0.0.1:${handPort}/ready`
      )),
      base: `http://127.0.0.1:${handPort}`
    }
    servers.push(byHand)
    // Warm-ups, not printed.
    await measure(veche, 3)
    await measure(byHand, 3)
    for (let rep = 0; rep < REPS; rep++) {
      for (const server of rep % 2 === 0 ? [veche, byHand] : [byHand, veche]) {
        console.log(`round ${rep + 1} ${await measure(server, SECONDS)}`)
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

void Processes.runMain(main)
