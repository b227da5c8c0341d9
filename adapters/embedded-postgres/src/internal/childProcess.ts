/**
 * Spawning initdb and postgres (and the small commands around them) so that nothing they do can take
 * the Node process down: a spawn that fails (EACCES, ENOENT, a refused setuid) is a tagged error,
 * never an unhandled 'error' event; output arrives as whole lines; an interrupted run is killed.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { Effect } from "effect"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"

/** The system user a child runs as when this process is root (PostgreSQL refuses to run as root). */
export interface RunAs {
  readonly user: string
  readonly uid: number
  readonly gid: number
}

export interface Command {
  readonly file: string
  readonly args: ReadonlyArray<string>
  readonly runAs?: RunAs | undefined
  readonly env?: NodeJS.ProcessEnv | undefined
  /** Every line the process prints, stdout and stderr alike, as soon as the line is complete. */
  readonly onLine?: ((line: string) => void) | undefined
  /** Its own process group: a Ctrl-C in the terminal reaches us only, and we stop it in order. */
  readonly detached?: boolean | undefined
}

export interface Exited {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface Running {
  readonly pid: number
  readonly child: ChildProcess
  /** Resolves when the process has exited (its output may still be draining). */
  readonly exited: Promise<Exited>
  /** Resolves when it has exited and its output is drained (a child still holding the pipe delays this). */
  readonly closed: Promise<void>
  readonly hasExited: () => boolean
}

export const describeExit = ({ code, signal }: Exited): string =>
  signal !== null ? `was killed by ${signal}` : `exited with code ${code ?? "?"}`

const errnoCode = (cause: unknown): string | undefined =>
  typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
    ? cause.code
    : undefined

/** `spawn EACCES` alone does not say what to do; the code is what the callers branch on. */
export const spawnErrorCode = (error: EmbeddedPostgresError): string | undefined => errnoCode(error.cause)

const spawnFailure = (command: Command, cause: unknown): EmbeddedPostgresError => {
  const code = errnoCode(cause)
  const as = command.runAs === undefined ? "" : ` as the system user "${command.runAs.user}"`
  const detail =
    code === "EACCES"
      ? "permission denied (the file is not executable, or a folder on its path cannot be entered)"
      : code === "ENOENT"
        ? "no such file"
        : code === "EPERM"
          ? "operation not permitted (switching user needs root)"
          : cause instanceof Error
            ? cause.message
            : String(cause)
  return new EmbeddedPostgresError({ reason: `cannot run ${command.file}${as}: ${detail}`, cause })
}

/** Calls `onLine` for each complete line of a stream, and for the unterminated rest at its end. */
const forEachLine = (stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): void => {
  if (stream === null) return
  let rest = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n")
    rest = lines.pop() ?? ""
    for (const line of lines) onLine(line.replace(/\r$/, ""))
  })
  stream.on("end", () => {
    if (rest.length > 0) onLine(rest)
    rest = ""
  })
  // A broken pipe is not worth a crash; the process's exit tells what happened.
  stream.on("error", () => {})
}

/** Starts a process; succeeds once it runs (the 'spawn' event), fails with a tagged error otherwise. */
export const start = (command: Command): Effect.Effect<Running, EmbeddedPostgresError> =>
  Effect.callback<Running, EmbeddedPostgresError>((resume) => {
    let child: ChildProcess
    try {
      child = spawn(command.file, [...command.args], {
        stdio: ["ignore", "pipe", "pipe"],
        env: command.env ?? process.env,
        detached: command.detached ?? false,
        windowsHide: true,
        ...(command.runAs === undefined ? {} : { uid: command.runAs.uid, gid: command.runAs.gid })
      })
    } catch (cause) {
      // Some failures (EPERM for uid/gid, invalid arguments) throw instead of emitting 'error'.
      resume(Effect.fail(spawnFailure(command, cause)))
      return
    }
    let spawned = false
    const exited = new Promise<Exited>((resolve) => {
      child.once("exit", (code, signal) => resolve({ code, signal }))
    })
    const closed = new Promise<void>((resolve) => {
      child.once("close", () => resolve())
    })
    // Always listening: an 'error' without a listener is an uncaught exception.
    child.on("error", (cause) => {
      if (!spawned) resume(Effect.fail(spawnFailure(command, cause)))
      // After the spawn, 'error' means a failed kill() or IPC; the process's exit reports the rest.
    })
    const onLine = command.onLine ?? (() => {})
    forEachLine(child.stdout, onLine)
    forEachLine(child.stderr, onLine)
    child.once("spawn", () => {
      spawned = true
      const pid = child.pid
      if (pid === undefined) {
        resume(Effect.fail(spawnFailure(command, new Error("no pid after spawn"))))
        return
      }
      resume(
        Effect.succeed({
          pid,
          child,
          exited,
          closed,
          hasExited: () => child.exitCode !== null || child.signalCode !== null
        })
      )
    })
  })

/** Waits for a started process to exit; interrupting the wait kills it. */
export const awaitExit = (running: Running): Effect.Effect<Exited> =>
  Effect.callback<Exited>((resume) => {
    void running.exited.then((exited) => resume(Effect.succeed(exited)))
    return Effect.sync(() => {
      if (!running.hasExited()) running.child.kill("SIGKILL")
    })
  })

/** Runs a command to its end: its exit code or signal. Interrupting (e.g. a timeout) kills it. */
export const run = (command: Command): Effect.Effect<Exited, EmbeddedPostgresError> =>
  // Uninterruptible from the spawn to the wait, so an interruption always finds the child to kill.
  Effect.uninterruptibleMask((restore) =>
    Effect.flatMap(start(command), (running) =>
      Effect.tap(restore(awaitExit(running)), () =>
        // The last lines arrive with 'close'; bounded, in case a grandchild still holds the pipe.
        Effect.promise(() =>
          Promise.race([running.closed, new Promise<void>((done) => setTimeout(done, 1_000).unref())])
        )
      )
    )
  )

/** Runs a command and returns what it printed, failing unless it exits with 0. */
export const output = (command: Command): Effect.Effect<string, EmbeddedPostgresError> =>
  Effect.suspend(() => {
    const lines: Array<string> = []
    return run({ ...command, onLine: (line) => lines.push(line) }).pipe(
      Effect.flatMap((exited) =>
        exited.code === 0
          ? Effect.succeed(lines.join("\n").trim())
          : Effect.fail(
              new EmbeddedPostgresError({
                reason: `${[command.file, ...command.args].join(" ")} ${describeExit(exited)}${lines.length > 0 ? `: ${lines.join(" ").trim()}` : ""}`
              })
            )
      )
    )
  })
