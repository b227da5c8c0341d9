/**
 * Where a bench script's processes run when it asks for pinning (`use()`: `bench/run.ts`,
 * `bench/ab.ts`, `bench/framework.ts`, the scripts whose load is `wrk`) and `wrk` drives the load
 * (BENCH_LOAD=wrk) on Linux: each measured server's main thread on the first CPU this process may
 * use, `wrk` on the last, everything else (the servers' V8 and libuv threads, PostgreSQL, Redis)
 * wherever the kernel puts it. BENCH_PIN=0 turns it off. The scripts whose load comes from their
 * own process (the gateway's sockets, autocannon) do not ask: their load would share the servers'
 * CPU.
 *
 * Why: on two cores the kernel sometimes runs the load generator on the server's core and moves them
 * about, and on this VM a wake-up across cores costs tens of µs. One server then read 15–18k req/s
 * for tens of seconds and 28–31k after, in one run; of four fresh servers one stayed slow for its
 * whole run. Those modes, not the code, were part of the spread between a row's processes and
 * between runs (docs/traps.md). With the main thread and `wrk` on cores of their own, one server's
 * twelve 4 s runs read 28.3–32.0k req/s, against 19.2–31.7k unpinned on the same pair of servers
 * minutes before. Clients on other machines do not share the server's cores either.
 *
 * Only the main thread is pinned (`taskset -p` on its thread id, which is the process id), once the
 * server answers: by then V8's and libuv's threads have started with every CPU allowed (the
 * reference server starts libuv's pool during its start), and a thread started later by the main
 * thread would inherit its one CPU. A server without pool threads by then gets a warning, and the
 * threads started later (argon2id's hash threads start at the first login) get every CPU back from
 * `releaseLateThreads` before each measurement.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import * as ThreadPool from "../../adapters/node-server/src/ThreadPool.ts"

let wanted = false

/** A script whose load is `wrk` asks for pinning before it starts anything. */
export const use = (): void => {
  wanted = true
}

/** The CPUs this process may run on (`Cpus_allowed_list`, e.g. `0-1` or `0,2-3`), in order. */
export const allowedCpus = (list: string): ReadonlyArray<number> =>
  list
    .trim()
    .split(",")
    .filter((part) => part !== "")
    .flatMap((part) => {
      const [from, to] = part.split("-").map(Number)
      if (from === undefined || !Number.isInteger(from)) return []
      const last = to === undefined ? from : to
      return Array.from({ length: last - from + 1 }, (_, index) => from + index)
    })

/** The CPUs a task may run on, from its `status` file in `/proc`. */
const allowedCpusOf = (statusPath: string): ReadonlyArray<number> =>
  allowedCpus(/^Cpus_allowed_list:\s*(.+)$/m.exec(readFileSync(statusPath, "utf8"))?.[1] ?? "")

const cpus: ReadonlyArray<number> = process.platform === "linux" ? allowedCpusOf("/proc/self/status") : []

const available: boolean =
  process.env.BENCH_LOAD === "wrk" &&
  process.env.BENCH_PIN !== "0" &&
  cpus.length >= 2 &&
  spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0

/** Whether this run pins: asked for, `wrk`, Linux, two allowed CPUs or more, `taskset` installed. */
export const enabled = (): boolean => wanted && available

/** The CPU each measured server's main thread runs on. */
export const serverCpu = (): number => cpus[0] ?? 0

/** The CPU `wrk` runs on. */
export const loadCpu = (): number => cpus[cpus.length - 1] ?? 0

/**
 * Pins a started process's main thread to `serverCpu()`, when pinning is on. A failure (the process
 * gone, `taskset` refused) is reported and the run goes on unpinned for that process.
 */
export const pinMainThread = (name: string, pid: number): void => {
  if (!enabled()) return
  try {
    execFileSync("taskset", ["-p", "-c", String(serverCpu()), String(pid)], { stdio: "ignore" })
    // Node 24's libuv names its pool threads; an older one's would read 0 here either way.
    if (Number(process.versions.node.split(".")[0]) >= 24 && ThreadPool.workersOf(pid) === 0)
      process.stderr.write(
        `pinning: ${name} has no libuv pool threads yet; those it starts will share CPU ${serverCpu()}\n`
      )
  } catch (error) {
    process.stderr.write(`pinning: ${name} left unpinned (${error instanceof Error ? error.message : String(error)})\n`)
  }
}

/**
 * Gives each thread of `pid` but its main thread every CPU again where it has fewer: a thread the
 * main thread started after `pinMainThread` inherited its one CPU (argon2id's hash threads start at
 * the first login, in the warm-up). Call it before each measurement, when pinning is on.
 */
export const releaseLateThreads = (pid: number): void => {
  if (!enabled() || pid === 0) return
  const all = cpus.join(",")
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    if (task === String(pid)) continue
    try {
      if (allowedCpusOf(`/proc/${pid}/task/${task}/status`).length < cpus.length)
        execFileSync("taskset", ["-p", "-c", all, task], { stdio: "ignore" })
    } catch {
      // the thread ended meanwhile
    }
  }
}

/** The command and arguments that run `command` on `loadCpu()`, when pinning is on. */
export const onLoadCpu = (
  command: string,
  args: ReadonlyArray<string>
): { readonly command: string; readonly args: ReadonlyArray<string> } =>
  enabled() ? { command: "taskset", args: ["-c", String(loadCpu()), command, ...args] } : { command, args }

/** What the report says about it. */
export const describe = (): string =>
  enabled()
    ? `servers' main threads pinned to CPU ${serverCpu()}, wrk to CPU ${loadCpu()} (BENCH_PIN=0 turns it off)`
    : "nothing pinned"
