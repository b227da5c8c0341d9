/**
 * Counting a request's SQL statements in a test: effect's SQL client opens one span per statement
 * while tracing is on (with it off, as the reference server runs, it opens none), so the names of
 * the spans opened under a recording tracer tell what ran.
 */
import { Effect, Tracer } from "effect"

/** The names of the spans opened while `effect` runs (the native tracer underneath keeps working). */
export const spansOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const names: Array<string> = []
    const native = yield* Effect.service(Tracer.Tracer)
    const recording = Tracer.make({
      span: (options) => {
        names.push(options.name)
        return native.span(options)
      }
    })
    const result = yield* effect.pipe(Effect.withTracer(recording), Effect.withTracerEnabled(true))
    return { result, names }
  })

/** Statements among the spans: effect's SQL client names each one for the database it runs on. */
export const statements = (names: ReadonlyArray<string>) => names.filter((name) => /postgres|sql\.execute/i.test(name))
