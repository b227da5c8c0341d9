/**
 * The embedded PostgreSQL's life in one scope: find the binaries, check the data folder, initialise
 * the cluster on first use, start postgres, create the application database, and stop postgres when
 * the scope closes. EmbeddedPostgres.ts wraps this as a layer; tests call it with other locations.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Clock, Duration, Effect, Option, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import * as Binaries from "./binaries.ts"
import * as ChildProcess from "./childProcess.ts"
import { EmbeddedPostgresError } from "./EmbeddedPostgresError.ts"
import { freeLoopbackPort } from "./loopbackPort.ts"
import * as PostgresOutput from "./postgresOutput.ts"
import * as Postmaster from "./postmaster.ts"
import * as SystemUser from "./systemUser.ts"

export interface Options {
  readonly dataDir: string
  readonly port?: number | undefined
}

/** For tests: where the binaries are and where root stages its copy. */
export interface Overrides {
  readonly binaries?: Binaries.Locations | undefined
}

export interface Cluster {
  readonly url: Redacted.Redacted<string>
  readonly port: number
  readonly dataDir: string
}

// The cluster is reachable from this machine only, so the superuser is the application's user.
const USER = "postgres"
const DATABASE = "veche"
const PASSWORD_FILE = "pg-password"
const INIT_TIMEOUT = Duration.seconds(120)
const START_TIMEOUT = Duration.seconds(60) // generous: crash recovery after a hard kill replays WAL
const STOP_TIMEOUT = Duration.seconds(10)
const SETUP_TIMEOUT = Duration.seconds(30)
const READY_LINE = /database system is ready to accept connections/

// UTF-8 with the builtin C.UTF-8 locale: Unicode upper/lower, byte-order collation, and no dependency
// on the machine's installed locales (the folder can move between machines). Messages in C (English,
// always available): a locale named in postgresql.conf that another machine lacks stops postgres.
const INITDB_FLAGS = [
  "--encoding=UTF8",
  "--locale=C",
  "--lc-messages=C",
  "--locale-provider=builtin",
  "--builtin-locale=C.UTF-8"
]
// TCP on loopback only, and no Unix socket: nothing written to /tmp, nothing to collide with.
const POSTGRES_FLAGS = ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="]

const ms = (duration: Duration.Duration): string => `${Math.round(Duration.toMillis(duration))} ms`

// Waiting for real processes needs real time: under a TestClock these sleeps would never end.
const withLiveClock = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Clock.Clock, Clock.Clock.defaultValue())

const errorText = (cause: unknown): string =>
  typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string"
    ? cause.message
    : String(cause)

const failWith =
  (reason: string) =>
  (cause: unknown): EmbeddedPostgresError =>
    new EmbeddedPostgresError({ reason: `${reason}: ${errorText(cause)}`, cause })

const io = <A>(reason: string, run: () => Promise<A>): Effect.Effect<A, EmbeddedPostgresError> =>
  Effect.tryPromise({ try: run, catch: failWith(reason) })

const exists = (file: string): Effect.Effect<boolean> =>
  Effect.promise(() =>
    fs.access(file).then(
      () => true,
      () => false
    )
  )

/**
 * As root, postgres runs as another user, who must be able to enter every folder down to the data
 * folder. We do not open up folders we did not make: say which one is closed and what to do.
 */
const checkReachable = (dataDir: string, runAs: ChildProcess.RunAs): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.flatMap(SystemUser.firstBlocking(dataDir, runAs), (blocking) =>
    Option.match(blocking, {
      onNone: () => Effect.void,
      onSome: (b) =>
        Effect.fail(
          new EmbeddedPostgresError({
            reason:
              `the data folder ${dataDir} is out of reach of the system user "${runAs.user}" (uid ${runAs.uid}), which PostgreSQL runs as because this process runs as root: ${SystemUser.describeBlocking(b)} does not let that user through. ` +
              `Either let it through with \`chmod o+x ${b.folder}\` (enter only: its listing stays private), or choose a data folder that user can reach, e.g. SERVICE_DATA_DIR=/var/lib/veche (or DATABASE_URL for a PostgreSQL server of your own).`
          })
        )
    })
  )

/** Creates the data folder; as root, the folders we create let the postgres user through. */
const makeDataDir = (dataDir: string, runAs: ChildProcess.RunAs | undefined) =>
  io(`cannot create the data folder ${dataDir}`, async () => {
    const created = await fs.mkdir(dataDir, { recursive: true })
    if (created === undefined || runAs === undefined) return
    for (let dir = dataDir; ; dir = path.dirname(dir)) {
      await fs.chmod(dir, 0o755)
      if (dir === created || path.dirname(dir) === dir) return
    }
  })

/** A folder only `runAs` (and root) can read; its owner must be the user postgres runs as. */
const makePrivateDir = (dir: string, runAs: ChildProcess.RunAs | undefined) =>
  io(`cannot create ${dir}`, async () => {
    await fs.mkdir(dir, { mode: 0o700 })
    if (runAs !== undefined) await fs.chown(dir, runAs.uid, runAs.gid)
  })

const readPassword = (dataDir: string, pgDir: string): Effect.Effect<string, EmbeddedPostgresError> => {
  const file = path.join(dataDir, PASSWORD_FILE)
  return Effect.tryPromise({
    try: () => fs.readFile(file, "utf8"),
    catch: (cause) =>
      new EmbeddedPostgresError({
        reason: `the cluster in ${pgDir} exists but its password cannot be read from ${file} (${errorText(cause)}); restore that file, or delete ${pgDir} to start over with an empty database`,
        cause
      })
  }).pipe(Effect.map((text) => text.trim()))
}

/**
 * initdb reads the superuser's password from a file (never from its command line, which anyone can
 * read in `ps`). That file lives in a folder of its own, 0700 and owned by the user initdb runs as,
 * only while initdb runs.
 */
const withInitdbPasswordFile = <A, E>(
  dataDir: string,
  password: string,
  runAs: ChildProcess.RunAs | undefined,
  use: (file: string) => Effect.Effect<A, E>
): Effect.Effect<A, E | EmbeddedPostgresError> => {
  const dir = path.join(dataDir, "pg.init-password")
  const file = path.join(dir, "password")
  return Effect.acquireUseRelease(
    Effect.andThen(
      makePrivateDir(dir, runAs),
      io(`cannot write ${file}`, async () => {
        await fs.writeFile(file, `${password}\n`, { mode: 0o600, flag: "wx" })
        if (runAs !== undefined) await fs.chown(file, runAs.uid, runAs.gid)
      })
    ),
    () => use(file),
    () => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
  )
}

/** Creates the cluster in `<dataDir>/pg` with a new password; returns the password. */
const initialise = (
  binaries: Binaries.Binaries,
  dataDir: string,
  pgDir: string,
  runAs: ChildProcess.RunAs | undefined,
  output: PostgresOutput.PostgresOutput
): Effect.Effect<string, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const pgInitDir = `${pgDir}.init`
    const step = `initialising a PostgreSQL cluster in ${pgInitDir}`
    // What a previous initialisation that did not finish left.
    yield* io(`cannot remove ${pgInitDir}`, () => fs.rm(pgInitDir, { recursive: true, force: true }))
    yield* io("cannot remove an old initdb password file", () =>
      fs.rm(path.join(dataDir, "pg.init-password"), { recursive: true, force: true })
    )
    // node:crypto rather than Effect's SecureRandom service: this adapter should need no layers.
    const password = randomBytes(24).toString("base64url")
    const passwordFile = path.join(dataDir, PASSWORD_FILE)
    yield* io(`cannot write ${passwordFile}`, async () => {
      await fs.rm(passwordFile, { force: true }) // so `mode` applies: it is only used on creation
      await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 })
    })
    // Made by us and owned by the user initdb runs as, who would otherwise have to create it in a
    // folder (the data folder) that it cannot write to.
    yield* makePrivateDir(pgInitDir, runAs)
    const [elapsed] = yield* Effect.timed(
      withInitdbPasswordFile(dataDir, password, runAs, (pwfile) =>
        ChildProcess.run({
          file: binaries.initdb,
          args: [
            `--pgdata=${pgInitDir}`,
            "--auth=scram-sha-256", // not "password", which sends it in clear text
            `--username=${USER}`,
            `--pwfile=${pwfile}`,
            ...INITDB_FLAGS
          ],
          runAs,
          env: Binaries.environment(),
          onLine: output.log
        }).pipe(
          Effect.mapError(
            (error) => new EmbeddedPostgresError({ reason: `${step} failed: ${error.reason}`, cause: error })
          ),
          Effect.timeoutOrElse({
            duration: INIT_TIMEOUT,
            orElse: () =>
              Effect.fail(
                new EmbeddedPostgresError({
                  reason: PostgresOutput.describeFailure(
                    step,
                    `initdb did not finish within ${Duration.format(INIT_TIMEOUT)}`,
                    output.tail()
                  )
                })
              )
          }),
          Effect.flatMap((exited) =>
            exited.code === 0
              ? Effect.void
              : Effect.fail(
                  new EmbeddedPostgresError({
                    reason: PostgresOutput.describeFailure(
                      step,
                      `initdb ${ChildProcess.describeExit(exited)}`,
                      output.tail()
                    )
                  })
                )
          )
        )
      )
    )
    yield* io(
      `cannot move the new cluster to ${pgDir} (if that folder exists without a PG_VERSION file, it is not a cluster: move it away)`,
      () => fs.rename(pgInitDir, pgDir)
    )
    yield* Effect.logInfo(`initialised a new PostgreSQL cluster in ${pgDir} in ${ms(elapsed)}`)
    return password
  })

/** Whether postmaster.pid says that this pid is up and accepting connections (what `pg_ctl -w` reads). */
const pidFileSaysReady = (pgDir: string, pid: number): Promise<boolean> =>
  fs.readFile(Postmaster.pidFilePath(pgDir), "utf8").then(
    (text) => {
      const lines = text.split("\n")
      return Number(lines[0]) === pid && lines[7]?.trim() === "ready"
    },
    () => false
  )

/**
 * Ready when postgres says so: its "ready to accept connections" line, or (should its log go
 * elsewhere) postmaster.pid's status. Fails as soon as postgres exits, with what it printed.
 */
const awaitReady = (
  running: ChildProcess.Running,
  readyLine: Promise<void>,
  pgDir: string,
  step: string,
  output: PostgresOutput.PostgresOutput
): Effect.Effect<void, EmbeddedPostgresError> =>
  Effect.callback<void, EmbeddedPostgresError>((resume) => {
    let settled = false
    const settle = (effect: Effect.Effect<void, EmbeddedPostgresError>) => {
      if (settled) return
      settled = true
      clearInterval(timer)
      resume(effect)
    }
    void readyLine.then(() => settle(Effect.void))
    void running.exited.then(async (exited) => {
      // Its last lines may still be in the pipe.
      await Promise.race([running.closed, new Promise((done) => setTimeout(done, 500).unref())])
      settle(
        Effect.fail(
          new EmbeddedPostgresError({
            reason: PostgresOutput.describeFailure(
              step,
              `postgres ${ChildProcess.describeExit(exited)} before it was ready`,
              output.tail()
            )
          })
        )
      )
    })
    const timer = setInterval(() => {
      void pidFileSaysReady(pgDir, running.pid).then((ready) => {
        if (ready) settle(Effect.void)
      })
    }, 100)
    return Effect.sync(() => {
      settled = true
      clearInterval(timer)
    })
  })

/**
 * Stops our postgres: SIGINT (PostgreSQL's fast shutdown), then waits for it to exit. Whatever
 * happens, finish with the same sweep as at start-up, which stops a postgres still running by signal
 * and removes what a crashed one left.
 */
const shutdown = (running: ChildProcess.Running, pgDir: string): Effect.Effect<void> =>
  Effect.gen(function* () {
    const [elapsed] = yield* Effect.timed(
      Effect.gen(function* () {
        if (!running.hasExited()) {
          try {
            running.child.kill("SIGINT")
          } catch {
            // Gone in the meantime.
          }
          yield* Effect.promise(() => running.exited).pipe(
            // Finalizers are uninterruptible; the timeout must be able to abandon the wait.
            Effect.interruptible,
            Effect.timeoutOrElse({
              duration: STOP_TIMEOUT,
              orElse: () =>
                Effect.logWarning(
                  `postgres did not stop within ${Duration.format(STOP_TIMEOUT)}; stopping it by signal`
                )
            })
          )
        }
        yield* Postmaster.clearLeftover(pgDir)
      })
    )
    yield* Effect.logInfo(`stopped PostgreSQL in ${ms(elapsed)}`)
  }).pipe(
    Effect.catch((error) => Effect.logError(`stopping PostgreSQL failed: ${error.reason}`)),
    withLiveClock,
    Effect.annotateLogs({ module: "EmbeddedPostgres" })
  )

/** Starts postgres on the cluster; it is stopped when the scope closes, whether or not it got ready. */
const startPostgres = (
  binaries: Binaries.Binaries,
  pgDir: string,
  port: number,
  runAs: ChildProcess.RunAs | undefined,
  output: PostgresOutput.PostgresOutput
): Effect.Effect<ChildProcess.Running, EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function* () {
    const step = `starting PostgreSQL on 127.0.0.1:${port} in ${pgDir}`
    let sawReadyLine = () => {}
    const readyLine = new Promise<void>((resolve) => {
      sawReadyLine = resolve
    })
    const running = yield* Effect.acquireRelease(
      ChildProcess.start({
        file: binaries.postgres,
        args: ["-D", pgDir, "-p", String(port), ...POSTGRES_FLAGS],
        runAs,
        env: Binaries.environment(),
        detached: true,
        onLine: (line) => {
          output.log(line)
          if (READY_LINE.test(line)) sawReadyLine()
        }
      }).pipe(
        Effect.mapError(
          (error) => new EmbeddedPostgresError({ reason: `${step} failed: ${error.reason}`, cause: error })
        )
      ),
      (running) => shutdown(running, pgDir)
    )
    // For exits that skip finalizers (process.exit, an uncaught exception).
    yield* Postmaster.shutdownOnProcessExit(running.pid)
    yield* awaitReady(running, readyLine, pgDir, step, output).pipe(
      Effect.timeoutOrElse({
        duration: START_TIMEOUT,
        orElse: () =>
          Effect.fail(
            new EmbeddedPostgresError({
              reason: `PostgreSQL in ${pgDir} was not ready within ${Duration.format(START_TIMEOUT)}; its last output:\n  ${output.tail().join("\n  ")}`
            })
          )
      })
    )
    return running
  })

/** Creates the application database on first start; true when it was created. */
const ensureDatabase = (port: number, password: string): Effect.Effect<boolean, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const found = yield* sql`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`
    if (found.length > 0) return false
    // CREATE DATABASE takes no bind parameters; sql(name) quotes the identifier.
    yield* sql`CREATE DATABASE ${sql(DATABASE)}`
    return true
  }).pipe(
    Effect.provide(
      PgClient.layer({
        host: "127.0.0.1",
        port,
        username: USER,
        password: Redacted.make(password),
        database: "postgres",
        applicationName: "veche-embedded-setup",
        maxConnections: 1
      })
    ),
    Effect.mapError(failWith(`cannot create the database "${DATABASE}"`)),
    Effect.timeoutOrElse({
      duration: SETUP_TIMEOUT,
      orElse: () =>
        Effect.fail(
          new EmbeddedPostgresError({
            reason: `creating the database "${DATABASE}" did not finish within ${Duration.format(SETUP_TIMEOUT)}`
          })
        )
    })
  )

// Data folders with a cluster started in this process. A second one on the same folder would see
// the first one's postgres as a leftover of its own process and stop it.
const claimed = new Set<string>()

const claimInThisProcess = (pgDir: string): Effect.Effect<void, EmbeddedPostgresError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      if (claimed.has(pgDir)) {
        return Effect.fail(
          new EmbeddedPostgresError({ reason: `${pgDir} is already in use by another layer in this process` })
        )
      }
      claimed.add(pgDir)
      return Effect.void
    }),
    () => Effect.sync(() => claimed.delete(pgDir))
  )

export const make = (
  options: Options,
  overrides: Overrides = {}
): Effect.Effect<Cluster, EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function* () {
    const dataDir = path.resolve(options.dataDir)
    const pgDir = path.join(dataDir, "pg")
    yield* claimInThisProcess(pgDir)
    const output = yield* PostgresOutput.make
    // Root: postgres runs as the system user "postgres", who must reach the data folder and binaries.
    const runAs = Option.getOrUndefined(yield* SystemUser.runAs)
    if (runAs !== undefined) yield* checkReachable(dataDir, runAs)
    const binaries = yield* Binaries.resolve(runAs, overrides.binaries)
    yield* makeDataDir(dataDir, runAs)
    yield* Postmaster.clearLeftover(pgDir)

    const initialised = yield* exists(path.join(pgDir, "PG_VERSION"))
    const password = initialised
      ? yield* readPassword(dataDir, pgDir)
      : yield* initialise(binaries, dataDir, pgDir, runAs, output)
    const port = options.port ?? (yield* freeLoopbackPort)

    const [elapsed, running] = yield* Effect.timed(startPostgres(binaries, pgDir, port, runAs, output))
    yield* Effect.logInfo(`started PostgreSQL on 127.0.0.1:${port} (pid ${running.pid}) in ${ms(elapsed)}`)

    if (yield* ensureDatabase(port, password)) yield* Effect.logInfo(`created the database "${DATABASE}"`)
    return {
      url: Redacted.make(`postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`),
      port,
      dataDir
    }
  }).pipe(withLiveClock, Effect.annotateLogs({ module: "EmbeddedPostgres" }))
