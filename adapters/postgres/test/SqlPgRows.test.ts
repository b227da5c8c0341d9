/**
 * @effect/sql-pg as patched (patches/@effect__sql-pg@4.0.5.patch, docs/upstream-sql-pg-rows.md): a
 * row is a copy of a template of its columns, filled in (a wide row stayed a slow dictionary-mode
 * object when built column by column), and a prepared statement's key is remembered per SQL text.
 * The rows must be what they were: the columns in order, the last of two columns of one name, a
 * `__proto__` column as an own property; and one text with parameters of other types must still be
 * another prepared statement.
 */

import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"

const url = process.env.DATABASE_URL

// As the server runs it: pooled connections, statements pipelined and prepared on them.
const client = Layer.fresh(PgClient.layer({ url: Redacted.make(url ?? ""), maxConnections: 1, multiplex: true }))

const WIDE = 40
const wideSql = `SELECT ${Array.from({ length: WIDE }, (_, i) => `${i}::int4 + $1::int4 AS c${i}`).join(", ")}`

describe.runIf(url !== undefined && url !== "")("@effect/sql-pg rows (PostgreSQL)", () => {
  layer(client, { timeout: "60 seconds", excludeTestServices: true })((it) => {
    it.effect("a wide row has every column in order, again and again through its prepared statement", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        for (const offset of [0, 100, 7]) {
          const [row] = (yield* sql.unsafe(wideSql, [offset])) as ReadonlyArray<Record<string, unknown>>
          expect(Object.keys(row ?? {})).toEqual(Array.from({ length: WIDE }, (_, i) => `c${i}`))
          expect(Object.values(row ?? {})).toEqual(Array.from({ length: WIDE }, (_, i) => i + offset))
        }
        // Rows of one statement do not share values.
        const rows = (yield* sql`SELECT n AS a, n * 2 AS b FROM generate_series(1, 3) AS n`) as ReadonlyArray<
          Record<string, unknown>
        >
        expect(rows).toEqual([
          { a: 1, b: 2 },
          { a: 2, b: 4 },
          { a: 3, b: 6 }
        ])
      })
    )

    it.effect("two columns of one name keep the last; a __proto__ column is an own property", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const [twice] = (yield* sql`SELECT 1 AS x, 2 AS x, 3 AS y`) as ReadonlyArray<Record<string, unknown>>
        expect(twice).toEqual({ x: 2, y: 3 })
        const [proto] = (yield* sql.unsafe(`SELECT 1 AS "__proto__", 2 AS other`)) as ReadonlyArray<
          Record<string, unknown>
        >
        expect(Object.getPrototypeOf(proto)).toBe(Object.prototype)
        expect(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value).toBe(1)
        expect(proto?.other).toBe(2)
      })
    )

    it.effect("one SQL text with parameters of another type is another prepared statement", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        // A text prepared for an int4 parameter would refuse "a" (and a boolean) at Bind.
        const text = "SELECT $1::text AS value"
        for (const [value, text_] of [
          [1, "1"],
          ["a", "a"],
          [1, "1"],
          [true, "true"],
          ["b", "b"]
        ] as const) {
          expect(yield* sql.unsafe(text, [value])).toEqual([{ value: text_ }])
        }
      })
    )
  })
})
