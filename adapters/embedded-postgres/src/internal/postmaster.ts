/**
 * The postmaster of a data folder as the operating system sees it, and the clean-up after a crashed
 * run. A node process killed with SIGKILL leaves its postgres child running (re-parented to PID 1),
 * or leaves `postmaster.pid` behind. A leftover postmaster.pid blocks the next start whenever its pid
 * still answers `kill(pid, 0)`: an unrelated process that reused the pid, or a zombie — on machines
 * whose PID 1 never reaps orphans (this one), a postgres killed hard stays a zombie forever.
 */
import { execFileSync } from "node:child_process"
import { readFileSync, realpathSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Option, type Scope } from "effect"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"

/** What `postmaster.pid` says: line 1 the pid, line 7 the System V shared-memory key and id. */
export interface PidFile {
  readonly pid: number | undefined
  readonly shm: { readonly key: number; readonly id: number } | undefined
}

export interface ProcessInfo {
  readonly ppid: number
  /** Exited but not reaped: it can no longer do anything, though `kill(pid, 0)` still succeeds. */
  readonly zombie: boolean
  readonly commandLine: string
}

export const pidFilePath = (pgDir: string): string => path.join(pgDir, "postmaster.pid")

const parseInteger = (text: string | undefined, min: number): number | undefined => {
  const n = text === undefined || text.trim() === "" ? Number.NaN : Number(text)
  return Number.isSafeInteger(n) && n >= min ? n : undefined
}

export const readPidFile = (pgDir: string): Effect.Effect<Option.Option<PidFile>, EmbeddedPostgresError> =>
  Effect.tryPromise({
    try: () => fs.readFile(pidFilePath(pgDir), "utf8"),
    catch: (cause) => cause
  }).pipe(
    Effect.map((text): Option.Option<PidFile> => {
      const lines = text.split("\n")
      const shmFields = lines[6]?.trim().split(/\s+/) ?? []
      const key = parseInteger(shmFields[0], 1)
      const id = parseInteger(shmFields[1], 0)
      return Option.some({
        pid: parseInteger(lines[0], 1),
        shm: key !== undefined && id !== undefined ? { key, id } : undefined
      })
    }),
    Effect.catch((cause) =>
      isErrnoCode(cause, "ENOENT")
        ? Effect.succeed(Option.none())
        : Effect.fail(
            new EmbeddedPostgresError({
              reason: `cannot read ${pidFilePath(pgDir)}`,
              cause
            })
          )
    )
  )

const isErrnoCode = (cause: unknown, code: string): boolean =>
  typeof cause === "object" && cause !== null && "code" in cause && cause.code === code

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

/**
 * The process with this pid, or undefined when there is none. Synchronous on purpose: the shutdown
 * path must check liveness and register its exit listener in the same tick (see EmbeddedPostgres).
 */
export const inspect = (pid: number): ProcessInfo | undefined => {
  try {
    process.kill(pid, 0)
  } catch (cause) {
    // EPERM: it exists but belongs to another user; we can still read /proc or ps about it.
    if (!isErrnoCode(cause, "EPERM")) return undefined
  }
  if (process.platform === "linux") {
    const stat = readText(`/proc/${pid}/stat`)
    if (stat === undefined) return undefined
    // "pid (comm) S ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    const cmdline = readText(`/proc/${pid}/cmdline`) ?? ""
    return {
      ppid: Number(fields[1]),
      zombie: fields[0] === "Z" || fields[0] === "X",
      commandLine: cmdline
        .split("\0")
        .filter((arg) => arg.length > 0)
        .join(" ")
    }
  }
  try {
    const out = execFileSync("ps", ["-ww", "-o", "ppid=", "-o", "stat=", "-o", "command=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"]
    })
    const match = /^\s*(\d+)\s+(\S+)(?:\s+(\S.*))?$/.exec(out.trim())
    if (match === null) return undefined
    return {
      ppid: Number(match[1]),
      zombie: (match[2] ?? "").startsWith("Z"),
      commandLine: match[3] ?? ""
    }
  } catch {
    return undefined
  }
}

/** Alive enough to matter: exists and is not a zombie. */
export const isRunning = (pid: number): boolean => {
  const info = inspect(pid)
  return info !== undefined && !info.zombie
}

const realpathOrSelf = (p: string): string => {
  try {
    return realpathSync(p)
  } catch {
    return p
  }
}

/** We start the postmaster as `<bin>/postgres -D <pgDir> -p <port> ...` (see cluster.ts). */
export const isPostmasterOf = (info: ProcessInfo, pgDir: string): boolean =>
  /(^|\/)postgres( |$)/.test(info.commandLine) &&
  [pgDir, realpathOrSelf(pgDir)].some(
    (dir) => info.commandLine.includes(`-D ${dir} `) || info.commandLine.endsWith(`-D ${dir}`)
  )

/**
 * Whether a live postmaster still belongs to a running server: its parent is a live JavaScript runtime
 * other than us. An orphan's parent is PID 1 or a subreaper (init, tini, systemd), never node.
 */
const ownedByAnotherServer = (info: ProcessInfo): boolean => {
  if (info.ppid <= 1 || info.ppid === process.pid) return false
  const parent = inspect(info.ppid)
  return (
    parent !== undefined && !parent.zombie && /^(\S*\/)?(node|nodejs|bun|deno)(\.exe)?( |$)/.test(parent.commandLine)
  )
}

const signal = (pid: number, name: NodeJS.Signals): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.try({
    try: () => {
      process.kill(pid, name)
    },
    catch: (cause) => cause
  }).pipe(
    Effect.catch((cause) =>
      isErrnoCode(cause, "ESRCH")
        ? Effect.void
        : Effect.fail(
            new EmbeddedPostgresError({
              reason: `cannot send ${name} to postgres (pid ${pid})`,
              cause
            })
          )
    )
  )

const POLL_MS = 25

const waitUntil = (done: () => boolean, withinMs: number): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    for (let waited = 0; waited < withinMs; waited += POLL_MS) {
      if (done()) return true
      yield* Effect.sleep(POLL_MS)
    }
    return done()
  })

/**
 * Stops a postmaster: SIGINT is PostgreSQL's fast shutdown (rolls back sessions, checkpoints, removes
 * postmaster.pid); SIGQUIT its immediate shutdown (crash recovery on the next start); SIGKILL last.
 */
export const terminate = (pid: number): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const steps: ReadonlyArray<readonly [NodeJS.Signals, number]> = [
      ["SIGINT", 5_000],
      ["SIGQUIT", 3_000],
      ["SIGKILL", 3_000]
    ]
    for (const [name, withinMs] of steps) {
      yield* signal(pid, name)
      if (yield* waitUntil(() => !isRunning(pid), withinMs)) {
        if (name !== "SIGINT") yield* Effect.logWarning(`postgres (pid ${pid}) needed ${name} to stop`)
        return
      }
    }
    return yield* new EmbeddedPostgresError({
      reason: `postgres (pid ${pid}) is still running after SIGKILL`
    })
  })

/** Processes attached to a System V segment, from /proc (Linux); undefined when it is gone or unknown. */
const attachedProcesses = (shm: NonNullable<PidFile["shm"]>): number | undefined => {
  const table = readText("/proc/sysvipc/shm")
  if (table === undefined) return undefined
  for (const line of table.split("\n").slice(1)) {
    const [key, id, , , , , nattch] = line.trim().split(/\s+/)
    if (Number(key) === shm.key && Number(id) === shm.id) return Number(nattch)
  }
  return undefined
}

/**
 * Makes `<pgDir>` startable after whatever the last run left behind, without ever hanging:
 * - no postmaster.pid: nothing to do;
 * - its pid is a live postgres for this folder whose owner died: stop it;
 * - the same, but its owner (another server on this folder) is alive: fail, never pull the database
 *   from under a running server;
 * - its pid is gone, a zombie, or an unrelated process: the file is stale.
 * A stale file is removed only once no process of the old postgres still holds its shared memory:
 * that check is PostgreSQL's own guard against two postmasters on one folder, and deleting the file
 * bypasses it, so we do it ourselves first.
 */
export const clearLeftover = (pgDir: string): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const found = yield* readPidFile(pgDir)
    if (Option.isNone(found)) return
    const { pid, shm } = found.value
    const info = pid === undefined ? undefined : inspect(pid)
    if (pid !== undefined && info !== undefined && !info.zombie && isPostmasterOf(info, pgDir)) {
      if (ownedByAnotherServer(info)) {
        return yield* new EmbeddedPostgresError({
          reason: `${pgDir} is in use: postgres (pid ${pid}) belongs to another running process (pid ${info.ppid}); stop it or choose another data folder`
        })
      }
      yield* Effect.logInfo(
        info.ppid === process.pid
          ? `stopping postgres (pid ${pid}) by signal`
          : `stopping postgres (pid ${pid}) left running by a previous run`
      )
      yield* terminate(pid)
    } else {
      yield* Effect.logInfo(`removing a stale postmaster.pid (pid ${pid ?? "unreadable"} is not a running postgres)`)
    }
    if (shm !== undefined && process.platform === "linux") {
      const released = yield* waitUntil(() => (attachedProcesses(shm) ?? 0) === 0, 5_000)
      if (!released) {
        return yield* new EmbeddedPostgresError({
          reason: `processes of a previous postgres still use its shared memory (key ${shm.key}, id ${shm.id}); stop them (see \`ipcs -p\`) and start again`
        })
      }
    }
    // A fast or immediate shutdown removes the file itself; after SIGKILL or a crash it is still here.
    yield* Effect.tryPromise({
      try: () => fs.rm(pidFilePath(pgDir), { force: true }),
      catch: (cause) =>
        new EmbeddedPostgresError({
          reason: `cannot remove ${pidFilePath(pgDir)}`,
          cause
        })
    })
  })

/**
 * While the scope is open, an exit that skips our finalizer (`process.exit`, an uncaught exception)
 * still asks postgres for a fast shutdown. `exit` listeners run synchronously: a signal can be sent,
 * not awaited.
 */
export const shutdownOnProcessExit = (pid: number): Effect.Effect<void, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const listener = () => {
        if (!isRunning(pid)) return
        try {
          process.kill(pid, "SIGINT")
        } catch {
          // Gone in the meantime: nothing left to stop.
        }
      }
      process.once("exit", listener)
      return listener
    }),
    (listener) =>
      Effect.sync(() => {
        process.removeListener("exit", listener)
      })
  )
