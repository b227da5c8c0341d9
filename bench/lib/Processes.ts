/** Starts a server as its own process and waits until it answers; the bench never shares a process with it. */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { openSync, readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import * as path from "node:path"
import * as Pinning from "./Pinning.ts"

export interface Running {
  readonly name: string
  readonly pid: number
  readonly stop: () => Promise<void>
  readonly rssMb: () => Promise<number>
  /** CPU time the process has used so far (user + system), in milliseconds. */
  readonly cpuMs: () => number
}

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms on Linux). */
export const cpuMsOf = (pid: number, file = `/proc/${pid}/stat`): number => {
  const fields = readFileSync(file, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** cutime + cstime of this process (fields 16 and 17): the CPU of its children that have exited and been awaited (`wrk`). */
export const childrenCpuMs = (): number => {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[13]) + Number(fields[14])) * 10
}

/** The same for the process's main thread alone (its task whose id is the process's). */
export const mainThreadCpuMsOf = (pid: number): number => cpuMsOf(pid, `/proc/${pid}/task/${pid}/stat`)

/** The main thread's system time alone (stime), in ms. */
export const mainThreadSystemMsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  return Number(fields[12]) * 10
}

/**
 * utime + stime of each of a process's threads, summed by thread name (`/proc/<pid>/task/<tid>/comm`:
 * Node 24 names libuv's pool threads `libuv-worker`, V8's platform workers `V8Worker`), in ms.
 */
export const threadCpuMsByName = (pid: number | "self"): Map<string, number> => {
  const byName = new Map<string, number>()
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim()
      byName.set(name, (byName.get(name) ?? 0) + cpuMsOf(0, `/proc/${pid}/task/${task}/stat`))
    } catch {
      // exited meanwhile
    }
  }
  return byName
}

/**
 * CPU µs a request of each kind of thread since `before` (a `threadCpuMsByName` of the same process),
 * over `requests` requests; threads that spent nothing left out.
 */
export const threadCpuUsPerRequest = (
  pid: number | "self",
  before: Map<string, number>,
  requests: number
): Array<readonly [name: string, us: number]> =>
  [...threadCpuMsByName(pid)]
    .map(([name, ms]) => [name, ((ms - (before.get(name) ?? 0)) * 1000) / requests] as const)
    .filter(([, us]) => us > 0)

/** `threadCpuUsPerRequest`'s answer as one line: `MainThread 1642.0, V8Worker 262.0, …`. */
export const describeThreads = (perRequest: ReadonlyArray<readonly [string, number]>): string =>
  perRequest.map(([name, us]) => `${name} ${us.toFixed(1)}`).join(", ")

/** utime + stime of every process whose command is `name` (e.g. all of PostgreSQL's backends), in ms. */
export const cpuMsOfAll = (name: string): number => {
  let total = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) !== name) continue
      total += cpuMsOf(Number(entry), `/proc/${entry}/stat`)
    } catch {
      // exited meanwhile
    }
  }
  return total
}

const rssOf = async (pid: number): Promise<number> => {
  const { readFile } = await import("node:fs/promises")
  const status = await readFile(`/proc/${pid}/status`, "utf8")
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

// Every server this process started, so none outlives a failed or interrupted run.
const children = new Set<ChildProcess>()
export const killAll = (): void => {
  for (const child of children) child.kill("SIGKILL")
}
process.once("exit", killAll)
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    killAll()
    process.exit(130)
  })
}

/**
 * Its output went to /dev/null, and the server logs why it stopped there: start it once more with
 * the same settings, output kept, and answer its last lines. Only on the failure path.
 */
const whyItFails = (script: string, env: Record<string, string>, nodeFlags: ReadonlyArray<string>): string => {
  const again = spawnSync(process.execPath, [...nodeFlags, script], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 20_000
  })
  return `${again.stdout ?? ""}${again.stderr ?? ""}`.trim().split("\n").slice(-15).join("\n")
}

/**
 * An environment given as JSON on the bench's command line, where `null` leaves a variable out of the
 * server's environment (e.g. one of `NodeFlags.NODE_ENV`, to measure without it).
 */
export const environment = (json: string | undefined): Record<string, string | null> =>
  JSON.parse(json ?? "{}") as Record<string, string | null>

/** The variables of `env` that have a value. */
export const withoutUnset = (env: Record<string, string | null>): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== null))

export const start = async (
  name: string,
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  nodeFlags: ReadonlyArray<string> = []
): Promise<Running> => {
  // BENCH_PROFILE_DIR: each server writes a V8 CPU profile there when it stops (`--cpu-prof`).
  const profileDir = process.env.BENCH_PROFILE_DIR
  const profile =
    profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${name}.cpuprofile`]
  // The server's own output (its access log included) goes to /dev/null, as to a log shipper, or
  // with BENCH_LOG_DIR to <name>.log there.
  const logDir = process.env.BENCH_LOG_DIR
  const stdout = logDir === undefined ? "ignore" : openSync(path.join(logDir, `${name}.log`), "w")
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, ...profile, script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", stdout, "inherit"]
  })
  children.add(child)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  void exited.then(() => children.delete(child))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `${name} exited with ${child.exitCode} before it answered:\n${whyItFails(script, env, nodeFlags)}`
      )
    }
    const ok = await fetch(readyUrl, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.ok,
      () => false
    )
    if (ok) {
      Pinning.pinMainThread(name, child.pid ?? 0)
      break
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`${name} did not answer ${readyUrl} within 60 s`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    name,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill("SIGTERM")
      await exited
    },
    rssMb: () => rssOf(child.pid ?? 0),
    cpuMs: () => cpuMsOf(child.pid ?? 0)
  }
}

/**
 * Runs a bench script's `main`. On a failure it prints the error, kills every server this process
 * started (running children would keep it alive, and a stray server would load the next run) and
 * exits with 1.
 */
export const runMain = (main: () => Promise<void>): Promise<void> =>
  main().catch((error: unknown) => {
    console.error(error)
    killAll()
    process.exit(1)
  })

/** Runs a script that measures something by itself to its end, and answers what it printed on stdout. */
export const runToEnd = (name: string, script: string, env: Record<string, string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [script], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"]
    })
    children.add(child)
    const chunks: Array<Buffer> = []
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk))
    child.once("error", reject)
    // `close`, not `exit`: by then stdout has been read to its end.
    child.once("close", (code) => {
      children.delete(child)
      if (code === 0) resolve(Buffer.concat(chunks).toString("utf8"))
      else reject(new Error(`${name} exited with ${code}`))
    })
  })
