/**
 * `node bench/ab.ts`: one route on two reference servers that differ only in their environment,
 * measured side by side, to judge a change to the request path on a busy machine. Both servers run
 * at once; repetitions alternate A and B (A first, then B first), so the machine's drift hits both
 * alike; each side's server CPU per request (user + system from /proc) is reported per repetition
 * and as the median. Run `pnpm build:js` first (the servers run the built JavaScript).
 *
 *   AB_ENV_A, AB_ENV_B  JSON objects of environment variables for each side (default {}); a null
 *                       leaves one of `NodeFlags.NODE_ENV` out (e.g. '{"MALLOC_MMAP_THRESHOLD_":null}')
 *   AB_PATH             the route (default /api/v10/version)
 *   AB_ACCESS_LOG       true|false (default true), AB_LIMITS: on|off|redis (default on, limits
 *                       unreachable as in the bench)
 *   BENCH_SECONDS (5) BENCH_REPS (6) BENCH_CONNECTIONS (50) BENCH_WARMUP_SECONDS (2), DATABASE_URL
 *
 * With AB_LIMITS=redis each repetition also reports Redis's own CPU per request (`INFO cpu`, user +
 * system of the whole redis-server, read before and after): it runs on the same cores.
 *
 * Routes that need a user (`/api/v10/users/@me`): AB_BEARER=1 registers an account through the
 * first server (dev mode for both) and sends its access token.
 *
 * AB_LOGIN=1: `POST /api/v10/auth/login` as the bench's login row sends it (dev mode for both, route
 * limits off, BENCH_CONNECTIONS accounts registered through A, one per connection, each from its
 * own forwarded address). Each repetition also reports the server's main thread's CPU per request
 * (`/proc/<pid>/task/<pid>/stat`): argon2id runs on the libuv pool's threads, and its ≈10 ms a
 * verify drowns what the request path costs in the process's figure. It also prints the CPU a
 * request of each kind of thread, by name (`MainThread`, `libuv-worker`: argon2id, `V8Worker`: the
 * collector's and compiler's helpers), to set beside the verify loop's own (`floors/argon2.ts`
 * prints it as `threadsUs`).
 *
 *   AB_NODE_FLAGS_A, AB_NODE_FLAGS_B  JSON arrays of Node flags for each side instead of
 *                       `NodeFlags.NODE_FLAGS` (e.g. '["--max-semi-space-size=4","--heap-growing-percent=30","--no-allocation-site-pretenuring"]')
 *
 *   AB_ROOT_A, AB_ROOT_B  the checkout each side's server runs from (default: this one), to compare
 *                         two builds of the code: a copy of the tree with its own `dist` folders
 *                         (`node_modules/.pnpm` may be a link to this one's)
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs"
import * as net from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as NodeFlags from "../adapters/node-server/src/NodeFlags.ts"
import * as Accounts from "./lib/Accounts.ts"
import * as Database from "./lib/Database.ts"
import * as Load from "./lib/Load.ts"
import * as Pinning from "./lib/Pinning.ts"
import * as Processes from "./lib/Processes.ts"
import * as ServerEnv from "./lib/ServerEnv.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const REPS = Number(process.env.BENCH_REPS ?? 6)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const ROUTE = process.env.AB_PATH ?? (process.env.AB_LOGIN === "1" ? "/api/v10/auth/login" : "/api/v10/version")
const BEARER = process.env.AB_BEARER === "1"
const LOGIN = process.env.AB_LOGIN === "1"
const ROOT = path.resolve(import.meta.dirname, "..")
const envOf = (name: string): Record<string, string | null> => Processes.environment(process.env[name])

const UNREACHABLE = { limit: 1_000_000_000, windowMs: 1_000 }
const limits = (): Record<string, string> => {
  if (LOGIN) return { SERVICE_RATE_LIMITS_ENABLED: "false" }
  const mode = process.env.AB_LIMITS ?? "on"
  if (mode === "off") return { SERVICE_RATE_LIMITS_ENABLED: "false" }
  return {
    SERVICE_RATE_LIMITS: JSON.stringify({ version: UNREACHABLE, default: UNREACHABLE }),
    SERVICE_GLOBAL_RATE_LIMIT: "1000000000",
    ...(mode === "redis" ? { REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" } : {})
  }
}

const REDIS = (process.env.AB_LIMITS ?? "on") === "redis"

/** redis-server's user + system CPU in ms so far (`INFO cpu`), or NaN when it cannot be read. */
const redisCpuMs = (): Promise<number> =>
  new Promise((resolve) => {
    const url = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379")
    const socket = net.connect(Number(url.port || 6379), url.hostname)
    let text = ""
    const done = (value: number) => {
      socket.destroy()
      resolve(value)
    }
    socket.on("error", () => done(Number.NaN))
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1")
      const user = /used_cpu_user:([\d.]+)/.exec(text)
      const sys = /used_cpu_sys:([\d.]+)/.exec(text)
      if (user !== null && sys !== null) done((Number(user[1]) + Number(sys[1])) * 1000)
    })
    socket.write("INFO cpu\r\n")
  })

const dataDir = mkdtempSync(path.join(tmpdir(), "veche-ab-"))
chmodSync(dataDir, 0o755)

const rootOf = (name: string): string => path.resolve(process.env[`AB_ROOT_${name}`] ?? ROOT)

/** The side's Node flags: `AB_NODE_FLAGS_<side>` in place of the server's own, the build condition kept. */
const flagsOf = (name: string): ReadonlyArray<string> => {
  const own = process.env[`AB_NODE_FLAGS_${name}`]
  if (own === undefined) return NodeFlags.WORKSPACE_FLAGS
  return [...(JSON.parse(own) as Array<string>), ...NodeFlags.WORKSPACE_FLAGS.slice(NodeFlags.NODE_FLAGS.length)]
}

const start = async (name: string, database: Database.Database, env: Record<string, string | null>) => {
  const port = await Processes.freePort()
  const base = `http://127.0.0.1:${port}`
  const running = await Processes.start(
    name,
    path.join(rootOf(name), NodeFlags.WORKSPACE_BIN),
    Processes.withoutUnset({
      ...ServerEnv.referenceServer({ port, name, dataDir, database }),
      SERVICE_ENV: BEARER || LOGIN ? "dev" : "prod",
      SERVICE_ACCESS_LOG: process.env.AB_ACCESS_LOG ?? "true",
      ...limits(),
      ...env
    }),
    `${base}/api/v10/version`,
    flagsOf(name)
  )
  return { ...running, base }
}

const measure = async (
  server: Processes.Running & { base: string },
  seconds: number,
  request: Load.Request,
  other?: Processes.Running
) => {
  Pinning.releaseLateThreads(server.pid)
  // The other server idles meanwhile: its CPU then is what a server spends without requests.
  const otherBefore = other === undefined ? Number.NaN : other.cpuMs()
  const before = server.cpuMs()
  const mainBefore = Processes.mainThreadCpuMsOf(server.pid)
  const mainSystemBefore = Processes.mainThreadSystemMsOf(server.pid)
  const pgBefore = LOGIN ? Processes.cpuMsOfAll("postgres") : Number.NaN
  const threadsBefore = Processes.threadCpuMsByName(server.pid)
  const selfBefore = process.cpuUsage()
  const childrenBefore = Processes.childrenCpuMs()
  const redisBefore = REDIS ? await redisCpuMs() : Number.NaN
  const result = await Load.run(`${server.base}${ROUTE}`, { connections: CONNECTIONS, seconds, ...request })
  const redisUs = REDIS ? (((await redisCpuMs()) - redisBefore) * 1000) / (result.rps * seconds) : Number.NaN
  if (result.errors + result.non2xx > 0)
    throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} failed`)
  const threadsUs = Processes.describeThreads(
    Processes.threadCpuUsPerRequest(server.pid, threadsBefore, result.rps * seconds)
  )
  return {
    threadsUs,
    rps: result.rps,
    p99Ms: result.p99Ms,
    cpuUs: ((server.cpuMs() - before) * 1000) / (result.rps * seconds),
    mainUs: ((Processes.mainThreadCpuMsOf(server.pid) - mainBefore) * 1000) / (result.rps * seconds),
    mainSystemUs: ((Processes.mainThreadSystemMsOf(server.pid) - mainSystemBefore) * 1000) / (result.rps * seconds),
    // PostgreSQL's processes (every client's: other work on the machine counts too) and this
    // process, the load generator, per request.
    pgUs: ((Processes.cpuMsOfAll("postgres") - pgBefore) * 1000) / (result.rps * seconds),
    otherIdleMsPerS: other === undefined ? Number.NaN : (other.cpuMs() - otherBefore) / seconds,
    // With BENCH_LOAD=wrk the generator is a child process: its CPU is counted once it has exited.
    loadUs:
      ((({ user, system }) => user + system)(process.cpuUsage(selfBefore)) +
        (Processes.childrenCpuMs() - childrenBefore) * 1000) /
      (result.rps * seconds),
    redisUs
  }
}

const main = async () => {
  // its load is wrk: servers' main threads and wrk on CPUs of their own (bench/lib/Pinning.ts)
  Pinning.use()
  const database = await Database.open(path.join(dataDir, "pg"))
  try {
    // With AB_BEARER both run in dev mode; the account registers through A (its outbox has the code).
    const a = await start("A", database, envOf("AB_ENV_A"))
    // Before B starts: every node runs the delivery queue's worker, and a code B sent would land
    // in B's outbox, not in A's.
    if (LOGIN) await Accounts.registerMany(a.base, CONNECTIONS)
    const b = await start("B", database, envOf("AB_ENV_B"))
    try {
      const idle = { A: await a.rssMb(), B: await b.rssMb() }
      let request: Load.Request = {}
      if (LOGIN) request = { method: "POST", perConnection: Accounts.loginConnection }
      if (BEARER) {
        await Accounts.registerMany(a.base, 1)
        request = { headers: { authorization: `Bearer ${(await Accounts.login(a.base)).access_token}` } }
      }
      await measure(a, WARMUP, request)
      await measure(b, WARMUP, request)
      const results = {
        A: [] as Array<number>,
        B: [] as Array<number>,
        mainA: [] as Array<number>,
        mainB: [] as Array<number>,
        redisA: [] as Array<number>,
        redisB: [] as Array<number>,
        rpsA: [] as Array<number>,
        rpsB: [] as Array<number>,
        p99A: [] as Array<number>,
        p99B: [] as Array<number>
      }
      for (let rep = 0; rep < REPS; rep++) {
        const order = rep % 2 === 0 ? ([a, b] as const) : ([b, a] as const)
        for (const server of order) {
          const { rps, p99Ms, cpuUs, mainUs, mainSystemUs, pgUs, loadUs, otherIdleMsPerS, redisUs, threadsUs } =
            await measure(server, SECONDS, request, server === a ? b : a)
          ;(server === a ? results.A : results.B).push(cpuUs)
          ;(server === a ? results.mainA : results.mainB).push(mainUs)
          ;(server === a ? results.redisA : results.redisB).push(redisUs)
          ;(server === a ? results.rpsA : results.rpsB).push(rps)
          ;(server === a ? results.p99A : results.p99B).push(p99Ms)
          process.stderr.write(
            `  rep ${rep + 1} ${server.name}: ${rps.toFixed(0)} req/s, p99 ${p99Ms} ms, ${cpuUs.toFixed(1)} µs CPU/request` +
              ` (main thread ${mainUs.toFixed(1)}, system ${mainSystemUs.toFixed(1)})` +
              `${LOGIN ? `; PostgreSQL ${pgUs.toFixed(1)}, load generator ${loadUs.toFixed(1)} µs/request` : ""}` +
              `; the idle server meanwhile ${otherIdleMsPerS.toFixed(1)} ms CPU/s` +
              `${REDIS ? `, Redis ${redisUs.toFixed(1)} µs/request` : ""}` +
              `${LOGIN ? `\n    by thread name, µs/request: ${threadsUs}` : ""}\n`
          )
        }
      }
      const wins = results.A.filter((cpu, i) => (results.B[i] ?? Number.NaN) < cpu).length
      const mainWins = results.mainA.filter((cpu, i) => (results.mainB[i] ?? Number.NaN) < cpu).length
      console.log(
        `${ROUTE}: A ${Load.median(results.A).toFixed(1)} µs/request (${Load.median(results.rpsA).toFixed(0)} req/s, ` +
          `p99 ${Load.median(results.p99A)} ms), B ${Load.median(results.B).toFixed(1)} µs/request ` +
          `(${Load.median(results.rpsB).toFixed(0)} req/s, p99 ${Load.median(results.p99B)} ms); ` +
          `B cheaper in ${wins} of ${REPS} repetitions; ` +
          `main thread A ${Load.median(results.mainA).toFixed(1)}, B ${Load.median(results.mainB).toFixed(1)} µs/request, ` +
          `B cheaper in ${mainWins} of ${REPS}; ` +
          `${REDIS ? `Redis CPU µs/request A ${Load.median(results.redisA).toFixed(1)}, B ${Load.median(results.redisB).toFixed(1)}; ` : ""}` +
          `RSS idle → loaded: ` +
          `A ${idle.A} → ${await a.rssMb()} MB, B ${idle.B} → ${await b.rssMb()} MB`
      )
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  } finally {
    await database.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

void Processes.runMain(main)
