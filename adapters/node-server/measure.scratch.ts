import { Effect, References } from "effect"
const { EmbeddedPostgres } = await import(process.env.MOD!)
const dataDir = process.argv[2]!
const t0 = performance.now()
const mark = (label: string) => Effect.sync(() => console.log(label, Math.round(performance.now() - t0), "ms"))
const program = Effect.gen(function* () {
  const pg = yield* EmbeddedPostgres
  yield* mark("layer ready")
}).pipe(Effect.provide(EmbeddedPostgres.layer({ dataDir })))
await Effect.runPromise(mark("start").pipe(Effect.andThen(program), Effect.andThen(mark("stopped")), Effect.provideService(References.MinimumLogLevel, process.env.DEBUG ? "Debug" : "Info")))
