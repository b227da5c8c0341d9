/**
 * Where the bench's processes run when the load generator is `wrk` (BENCH_LOAD=wrk) on Linux: each
 * measured server's main thread on the first CPU, `wrk` on the last, everything else (the servers'
 * V8 and libuv threads, PostgreSQL, Redis) wherever the kernel puts it. BENCH_PIN=0 turns it off.
 *
 * Why: on two cores the kernel sometimes runs the load generator on the server's core and moves them
 * about, and on this VM a wake-up across cores costs tens of µs. One server then read 15–18k req/s
 * for tens of seconds and 28–31k after, in one run; of four fresh servers one stayed slow for its
 * whole run. Those modes, not the code, were most of the spread between a row's processes and
 * between runs (docs/traps.md). With the main thread and `wrk` on cores of their own, one server's
 * twelve 4 s runs read 28.3–32.0k req/s, against 19.2–31.7k unpinned on the same pair of servers
 * minutes before. Clients on other machines do not share the server's cores either.
 *
 * Only the main thread is pinned (`taskset -p` on its thread id, which is the process id), once the
 * server answers: by then V8's and libuv's threads have started with every CPU allowed, and a thread
 * started later by the main thread would inherit its one CPU.
 */
import { execFileSync, spawnSync } from "node:child_process"
import { availableParallelism } from "node:os"

const hasTaskset = (): boolean => spawnSync("taskset", ["-V"], { stdio: "ignore" }).status === 0

/** Whether this run pins (wrk drives the load, Linux, two CPUs or more, `taskset` installed, BENCH_PIN≠0). */
export const enabled: boolean =
  process.env.BENCH_LOAD === "wrk" &&
  process.env.BENCH_PIN !== "0" &&
  process.platform === "linux" &&
  availableParallelism() >= 2 &&
  hasTaskset()

/** The CPU each measured server's main thread runs on. */
export const SERVER_CPU = 0

/** The CPU `wrk` runs on. */
export const LOAD_CPU = availableParallelism() - 1

/** Pins a started process's main thread to SERVER_CPU, when pinning is on. */
export const pinMainThread = (pid: number): void => {
  if (enabled) execFileSync("taskset", ["-p", "-c", String(SERVER_CPU), String(pid)], { stdio: "ignore" })
}

/** The command and arguments that run `command` on LOAD_CPU, when pinning is on. */
export const onLoadCpu = (
  command: string,
  args: ReadonlyArray<string>
): { readonly command: string; readonly args: ReadonlyArray<string> } =>
  enabled ? { command: "taskset", args: ["-c", String(LOAD_CPU), command, ...args] } : { command, args }

/** What the report says about it. */
export const describe = (): string =>
  enabled
    ? `servers' main threads pinned to CPU ${SERVER_CPU}, wrk to CPU ${LOAD_CPU} (BENCH_PIN=0 turns it off)`
    : "nothing pinned"
