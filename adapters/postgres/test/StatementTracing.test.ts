/**
 * effect's sql layer as patched (patches/effect@4.1.0.patch, docs/upstream-sql-untraced.md): a
 * statement run with tracing off skips its span, one run with a tracer still makes it as before.
 * Both ways must answer the same rows, fail with the same SqlError, keep a transaction's statements
 * on its connection and stop on interruption.
 */

import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { recording } from "@veche/platform/test/support/RecordingTracer"
import { Duration, Effect, Exit, Layer, Redacted, type Tracer } from "effect"
import { SqlClient, SqlError, Statement } from "effect/sql"

const url = process.env.DATABASE_URL

// As the server runs it: pooled connections, statements pipelined on them.
const client = Layer.fresh(PgClient.layer({ url: Redacted.make(url ?? ""), maxConnections: 2, multiplex: true }))

describe.runIf(url !== undefined && url !== "")("SQL statements and tracing (PostgreSQL)", () => {
  // The real clock: the interruption test waits on a real timeout.
  layer(client, { timeout: "60 seconds", excludeTestServices: true })((it) => {
    it.effect("with a tracer, a statement makes its client span with the query text, ended with its exit", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { spans, tracer } = recording()
        const rows = yield* sql`SELECT ${41} + 1 AS answer`.pipe(
          Effect.withTracer(tracer),
          Effect.withTracerEnabled(true)
        )
        expect(rows).toEqual([{ answer: 42 }])
        const values = yield* sql`SELECT 7 AS seven`.values.pipe(
          Effect.withTracer(tracer),
          Effect.withTracerEnabled(true)
        )
        expect(values).toEqual([[7]])
        expect(spans.map((span) => [span.kind, span.attributes.get("effect.sql.method")])).toEqual([
          ["client", "execute"],
          ["client", "executeValues"]
        ])
        expect(spans[0]?.attributes.get("db.query.text")).toBe("SELECT $1 + 1 AS answer")
        expect(spans[0]?.attributes.get("db.system.name")).toBe("postgresql")
        expect(spans.every((span) => span.status._tag === "Ended" && Exit.isSuccess(span.status.exit))).toBe(true)

        const failed = yield* sql`SELECT * FROM no_such_table_here`.pipe(
          Effect.withTracer(tracer),
          Effect.withTracerEnabled(true),
          Effect.flip
        )
        expect(failed).toBeInstanceOf(SqlError.SqlError)
        const last = spans[2]
        expect(last?.status._tag === "Ended" && Exit.isFailure(last.status.exit)).toBe(true)
      })
    )

    it.effect("with tracing off, no span is asked for and the statement answers and fails as with one", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const { spans, tracer } = recording()
        const off = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          effect.pipe(Effect.withTracer(tracer), Effect.withTracerEnabled(false))
        expect(yield* off(sql`SELECT ${41} + 1 AS answer`)).toEqual([{ answer: 42 }])
        expect(yield* off(sql.unsafe("SELECT $1::int AS n", [5]))).toEqual([{ n: 5 }])
        expect(yield* off(sql`SELECT 7 AS seven`.values)).toEqual([[7]])
        expect(yield* off(sql`SELECT 8 AS eight`.withoutTransform)).toEqual([{ eight: 8 }])
        const failed = yield* off(sql`SELECT * FROM no_such_table_here`).pipe(Effect.flip)
        expect(failed).toBeInstanceOf(SqlError.SqlError)
        expect(failed.reason._tag).toBe("SqlSyntaxError")
        expect(spans).toEqual([])
      })
    )

    it.effect("with tracing off, a transaction's statements run on its connection and roll back with it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const inside = sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`SET LOCAL application_name = 'veche-untraced-test'`
            const [first] = yield* sql<{ readonly tx: string; readonly app: string }>`
              SELECT txid_current()::text AS tx, current_setting('application_name') AS app`
            const [second] = yield* sql<{ readonly tx: string }>`SELECT txid_current()::text AS tx`.withoutTransform
            return [first, second] as const
          })
        )
        const [first, second] = yield* inside.pipe(Effect.withTracerEnabled(false))
        expect(first?.app).toBe("veche-untraced-test")
        expect(second?.tx).toBe(first?.tx)

        const rolledBack = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`SET LOCAL application_name = 'veche-rolled-back'`
              return yield* Effect.fail("stop" as const)
            })
          )
          .pipe(Effect.withTracerEnabled(false), Effect.flip)
        expect(rolledBack).toBe("stop")
        const [after] = yield* sql<{ readonly app: string }>`SELECT current_setting('application_name') AS app`.pipe(
          Effect.withTracerEnabled(false)
        )
        expect(after?.app).not.toBe("veche-rolled-back")
      })
    )

    it.effect("with tracing off, a statement transformer still runs and is handed a span", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        let seen: Tracer.Span | undefined
        const transformer: Statement.Transformer = (_statement, make, _fiber, span) => {
          seen = span
          return Effect.succeed(make`SELECT 'rewritten' AS said`)
        }
        const rows = yield* sql`SELECT 'original' AS said`.pipe(
          Effect.provideService(Statement.CurrentTransformer, transformer),
          Effect.withTracerEnabled(false)
        )
        expect(rows).toEqual([{ said: "rewritten" }])
        expect(seen?._tag).toBe("Span")
      })
    )

    // Last: the connection stays busy with the abandoned sleep (it is not cancelled on the server).
    it.effect("with tracing off, an interrupted statement stops waiting", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const started = Date.now()
        const exit = yield* sql`SELECT pg_sleep(3)`.pipe(
          Effect.timeout(Duration.millis(200)),
          Effect.withTracerEnabled(false),
          Effect.exit
        )
        expect(Exit.isFailure(exit)).toBe(true)
        expect(Date.now() - started).toBeLessThan(2500)
      })
    )
  })
})
