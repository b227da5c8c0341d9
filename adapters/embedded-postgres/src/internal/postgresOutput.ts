/**
 * Where the output of initdb and postgres goes, and how their failures are told. Every line they
 * print goes to Effect logging (debug: a normal start stays quiet) and the last lines are kept,
 * because a process that exits early is explained only by what it printed.
 */
import { Effect, Predicate } from "effect"
import { buildScriptHint, platformPackage } from "./binaries.ts"

export interface PostgresOutput {
  /** A line printed by initdb or postgres. */
  readonly log: (line: string) => void
  /** Something that went wrong around them, worth a warning. */
  readonly warn: (message: string) => void
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
    log: (line) => {
      const text = line.trimEnd()
      if (text.trim().length === 0) return
      keep(text)
      runSync(Effect.logDebug(`postgres: ${text}`))
    },
    warn: (message) => {
      keep(message)
      runSync(Effect.logWarning(`postgres: ${message}`))
    },
    tail: () => [...lines]
  }
})

const MISSING_LIBRARIES = /error while loading shared libraries|cannot open shared object file|Library not loaded/

/**
 * One readable sentence for a failed step, with the last lines printed. A missing postinstall of the
 * binaries package (pnpm skips dependencies' build scripts unless allowed) shows up as unloadable
 * shared libraries, or as an exit with no output at all: both get the fix spelled out.
 */
export const describeFailure = (step: string, cause: unknown, tail: ReadonlyArray<string>): string => {
  const detail = Predicate.isError(cause)
    ? cause.message
    : cause === undefined || cause === null
      ? "postgres exited before it was ready"
      : String(cause)
  const output = tail.length > 0 ? `; its last output:\n  ${tail.join("\n  ")}` : ""
  const missingLibraries =
    MISSING_LIBRARIES.test(detail) ||
    tail.some((line) => MISSING_LIBRARIES.test(line)) ||
    ((cause === undefined || cause === null) && tail.length === 0)
  const hint = missingLibraries
    ? `\nThe PostgreSQL binaries in ${platformPackage} look incomplete. ${buildScriptHint(platformPackage)}`
    : ""
  return `${step} failed: ${detail}${output}${hint}`
}
