/**
 * `node --expose-gc bench/sql-micro.ts`: what one SQL statement costs in this process through
 * effect's sql layer (`@effect/sql-pg`, as the server configures it: a pipelining pool, tracing
 * off) against the bare `pg` driver running the same prepared `SELECT 1`. Statements run one after
 * another on one fiber (one loop per slice), so a slice's process CPU and heap growth divided by its
 * statements is the per-statement cost (the round trips to PostgreSQL only wait: no CPU). Slices of
 * each side alternate so the machine's drift hits both alike; it prints the medians. The `echo` side
 * runs the template on a client whose connection answers at once (bench/lib/EchoSqlClient.ts): the
 * sql layer's own work without driver or network, the steadiest figure to compare builds of effect.
 *
 * Heap growth is only a byte count when no collection runs inside a slice: each slice starts after a
 * full collection and is sized to fit the young generation (run with `--max-semi-space-size=64
 * --min-semi-space-size=64`, as `./dev node` passes flags through); a slice that saw a scavenge is
 * dropped from the byte median (counted in `dropped`).
 *
 *   DATABASE_URL (postgres://postgres@127.0.0.1:5432/test)
 *   MICRO_SLICES (20)  MICRO_STATEMENTS (1000, per slice)
 *   MICRO_CONCURRENCY (1)  statements in flight at once (fibers, or `pg` callers on its pool of 10):
 *                      the server pipelines those of concurrent requests on each connection
 *   MICRO_TRACER=on    run the effect side with tracing on (the native tracer), as a host with an
 *                      exporter would: the span must still be made then
 *   MICRO_ONLY=effect|prebuilt|pg|echo  run one side only (to profile it: `--cpu-prof`)
 *   MICRO_ALLOC_PROFILE=file.heapprofile  sample every allocation of the measured slices, collected
 *                      ones too (`--heap-prof` keeps only what is still alive), for DevTools
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { PerformanceObserver } from "node:perf_hooks"
import { PgTestSchema } from "@veche/postgres"
import { Effect, Layer, Redacted, References } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import * as EchoSqlClient from "./lib/EchoSqlClient.ts"
import * as Pg from "./lib/Pg.ts"

const URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"
const SLICES = Number(process.env.MICRO_SLICES ?? 20)
const STATEMENTS = Number(process.env.MICRO_STATEMENTS ?? 1000)
const TRACER = process.env.MICRO_TRACER === "on"
const ONLY = process.env.MICRO_ONLY
const ALLOC_PROFILE = process.env.MICRO_ALLOC_PROFILE
const CONCURRENCY = Number(process.env.MICRO_CONCURRENCY ?? 1)

/** CONCURRENCY fibers each running `loop` (its share of the statements), as requests do at once. */
const inParallel = <E, R>(loop: Effect.Effect<void, E, R>): Effect.Effect<void, E, R> =>
  CONCURRENCY === 1
    ? loop
    : Effect.forEach(Array.from({ length: CONCURRENCY }), () => loop, { concurrency: CONCURRENCY, discard: true })

const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with --expose-gc")

// Collections inside a slice make its heap growth meaningless: count them.
let collections = 0
new PerformanceObserver((list) => {
  collections += list.getEntries().length
}).observe({ entryTypes: ["gc"] })

interface Sample {
  readonly micros: number
  readonly bytes: number | undefined
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5))

const measure = async (run: () => Promise<void>): Promise<Sample> => {
  gc()
  // the observer reports asynchronously (after a timer turn): let the forced collection's entry in first
  await settle()
  const seen = collections
  const heap = process.memoryUsage().heapUsed
  const cpu = process.cpuUsage()
  await run()
  const used = process.cpuUsage(cpu)
  const grown = process.memoryUsage().heapUsed - heap
  await settle()
  return {
    micros: (used.user + used.system) / STATEMENTS,
    bytes: collections === seen ? grown / STATEMENTS : undefined
  }
}

const schema = PgTestSchema.freshName()
const database = PgTestSchema.layer(Redacted.make(URL), schema).pipe(
  Layer.provide(Layer.succeed(References.TracerEnabled, TRACER))
)

const program = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const services = yield* Effect.context<never>()
  const run = Effect.runPromiseWith(services)
  const tracer = Effect.provideService(References.TracerEnabled, TRACER)

  // The template as repositories write it, compiled on every call (the compile cache is per
  // statement object, and each call builds a new one).
  const viaTemplate = inParallel(
    Effect.gen(function* () {
      for (let i = 0; i < STATEMENTS / CONCURRENCY; i++) yield* sql`SELECT 1 AS one WHERE ${i} >= 0`
    })
  ).pipe(tracer)
  // The text compiled once, as PrebuiltStatement does for the token lookup.
  const viaUnsafe = inParallel(
    Effect.gen(function* () {
      for (let i = 0; i < STATEMENTS / CONCURRENCY; i++) yield* sql.unsafe("SELECT 1 AS one WHERE $1 >= 0", [i])
    })
  ).pipe(tracer)

  // The same template on a client whose connection answers at once: the sql layer's own work.
  const echo = yield* EchoSqlClient.make.pipe(Effect.provide(Reactivity.layer))
  const viaEcho = Effect.gen(function* () {
    for (let i = 0; i < STATEMENTS; i++) yield* echo`SELECT 1 AS one WHERE ${i} >= 0`
  }).pipe(tracer)

  const pool = Pg.pool(URL, { schema, max: 10 })
  const viaPg = async () => {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = 0; i < STATEMENTS / CONCURRENCY; i++) {
          await pool.query({ name: "sql-micro", text: "SELECT 1 AS one WHERE $1 >= 0", values: [i] })
        }
      })
    )
  }

  const sides: Record<string, () => Promise<void>> = {
    effect: () => run(viaTemplate),
    prebuilt: () => run(viaUnsafe),
    pg: viaPg,
    echo: () => run(viaEcho)
  }
  const names = Object.keys(sides).filter((name) => ONLY === undefined || ONLY === name)
  // warm up: connections opened, statements prepared, code optimised
  for (const name of names)
    for (let i = 0; i < 3; i++) yield* Effect.promise(() => sides[name]?.() ?? Promise.resolve())

  const profiler = ALLOC_PROFILE === undefined ? undefined : new Session()
  if (profiler !== undefined) {
    profiler.connect()
    yield* Effect.promise(() =>
      profiler.post("HeapProfiler.startSampling", {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true
      })
    )
  }
  const samples: Record<string, Array<Sample>> = Object.fromEntries(names.map((name) => [name, []]))
  for (let s = 0; s < SLICES; s++) {
    const order = s % 2 === 0 ? names : [...names].reverse()
    for (const name of order) {
      const side = sides[name]
      if (side !== undefined) samples[name]?.push(yield* Effect.promise(() => measure(side)))
    }
  }
  if (profiler !== undefined && ALLOC_PROFILE !== undefined) {
    const { profile } = yield* Effect.promise(() => profiler.post("HeapProfiler.stopSampling"))
    writeFileSync(ALLOC_PROFILE, JSON.stringify(profile))
  }
  yield* Effect.promise(() => pool.end())

  const median = (values: ReadonlyArray<number>) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN
  console.log(
    `tracing ${TRACER ? "on" : "off"}, ${CONCURRENCY} in flight; ${SLICES} slices of ${STATEMENTS} statements, medians per statement:`
  )
  for (const name of names) {
    const list = samples[name] ?? []
    const bytes = list.flatMap((sample) => (sample.bytes === undefined ? [] : [sample.bytes]))
    console.log(
      `  ${name.padEnd(8)} ${median(list.map((sample) => sample.micros)).toFixed(1)} µs CPU, ` +
        `${(median(bytes) / 1024).toFixed(2)} KB allocated (dropped ${list.length - bytes.length} slices with a GC)`
    )
  }
})

await Effect.runPromise(program.pipe(Effect.provide(database), Effect.scoped))
