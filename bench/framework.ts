/**
 * `node bench/framework.ts`: what the framework alone costs a request, server by server, side by
 * side: the `node:http` floor, a plain Effect HttpRouter route and a one-endpoint HttpApi server,
 * all answering `GET /api/v10/version` with the same JSON (bench/floors/{version,router,httpapi}.ts).
 * They run at once; each repetition loads them one after the other, in a rotating order, so the
 * machine's drift hits all alike. Prints each one's server CPU µs per request (user + system from
 * /proc over the requests answered) per repetition and the medians.
 *
 *   FRAMEWORK_FLOORS    comma-separated floors to run (default version,router,httpapi); a floor may
 *                       run twice under two names, `httpapi-a,httpapi-b` (the script is the part
 *                       before the dash), each with its own environment:
 *   FRAMEWORK_ENV_<F>   JSON environment for floor F (FRAMEWORK_ENV_HTTPAPI_B='{"X":"1"}')
 *   FRAMEWORK_ROOT_<F>  the checkout floor F runs from (default this one), to compare two builds of
 *                       effect (e.g. before and after a change to its patch), as bench/ab.ts's AB_ROOT_A
 *   BENCH_SECONDS (5) BENCH_REPS (4) BENCH_CONNECTIONS (50) BENCH_WARMUP_SECONDS (2), BENCH_LOAD
 */
import * as path from "node:path"
import * as Load from "./lib/Load.ts"
import * as Pinning from "./lib/Pinning.ts"
import * as Processes from "./lib/Processes.ts"

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const REPS = Number(process.env.BENCH_REPS ?? 4)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2)
const ROUTE = "/api/v10/version"
const names = (process.env.FRAMEWORK_FLOORS ?? "version,router,httpapi").split(",")

interface Floor {
  readonly name: string
  readonly running: Processes.Running
  readonly url: string
}

const startFloor = async (name: string): Promise<Floor> => {
  const port = await Processes.freePort()
  const url = `http://127.0.0.1:${port}${ROUTE}`
  const suffix = name.toUpperCase().replaceAll("-", "_")
  const env: Record<string, string> = JSON.parse(process.env[`FRAMEWORK_ENV_${suffix}`] ?? "{}")
  const root = path.resolve(process.env[`FRAMEWORK_ROOT_${suffix}`] ?? path.join(import.meta.dirname, ".."))
  const script = path.join(root, "bench/floors", `${name.split("-")[0]}.ts`)
  const running = await Processes.start(name, script, { PORT: String(port), ...env }, url)
  return { name, running, url }
}

const measure = async (floor: Floor, seconds: number): Promise<{ rps: number; cpuUs: number }> => {
  const before = floor.running.cpuMs()
  const result = await Load.run(floor.url, { connections: CONNECTIONS, seconds })
  if (result.errors + result.non2xx > 0)
    throw new Error(`${floor.name}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  const answered = result.rps * seconds
  return { rps: result.rps, cpuUs: ((floor.running.cpuMs() - before) * 1000) / answered }
}

// its load is wrk when BENCH_LOAD=wrk: servers' main threads and wrk on CPUs of their own (bench/lib/Pinning.ts)
Pinning.use()
const floors: Array<Floor> = []
try {
  for (const name of names) floors.push(await startFloor(name))
  for (const floor of floors) await measure(floor, WARMUP)
  const cpu = new Map<string, Array<number>>(floors.map((f) => [f.name, []]))
  for (let rep = 0; rep < REPS; rep++) {
    const order = floors.map((_, i) => floors[(i + rep) % floors.length] as Floor)
    const line: Array<string> = []
    for (const floor of order) {
      const { rps, cpuUs } = await measure(floor, SECONDS)
      cpu.get(floor.name)?.push(cpuUs)
      line.push(`${floor.name} ${cpuUs.toFixed(1)} µs (${rps.toFixed(0)} req/s)`)
    }
    console.log(`rep ${rep + 1}: ${line.join(", ")}`)
  }
  console.log(
    `median server CPU µs/request (${Load.GENERATOR}, ${CONNECTIONS} connections, ${SECONDS} s × ${REPS}): ` +
      floors.map((f) => `${f.name} ${Load.median(cpu.get(f.name) ?? []).toFixed(1)}`).join(", ")
  )
} finally {
  for (const floor of floors) await floor.running.stop()
}
