/**
 * effect's sql layer as patched (patches/effect@4.1.0.patch, docs/upstream-sql-untraced.md): a
 * statement keeps its first compilation on itself. A statement object compiled both with and
 * without name transforms, in either order, or by another client's compiler, must still answer
 * each compilation as a fresh statement would; the helpers (in, insert, update of arrays) and
 * nested or concurrent transactions must answer alike with tracing on and off.
 */

import { PgClient } from "@effect/sql-pg"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted, String as Str } from "effect"
import { SqlClient } from "effect/sql"

const url = process.env.DATABASE_URL

const transforming = Layer.fresh(
  PgClient.layer({
    url: Redacted.make(url ?? ""),
    maxConnections: 2,
    multiplex: true,
    transformQueryNames: Str.camelToSnake,
    transformResultNames: Str.snakeToCamel
  })
)

describe.runIf(url !== undefined && url !== "")("SQL statements compiled once, reused (PostgreSQL)", () => {
  layer(transforming, { timeout: "60 seconds", excludeTestServices: true })((it) => {
    it.effect("a statement compiled with and without transforms, in either order, answers each as a fresh one", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const make = () => sql`SELECT ${sql("fooBar")} FROM (SELECT 1 AS foo_bar, 2 AS "fooBar") t WHERE 1 = ${1}`
        const transformed = make().compile()
        const plain = make().compile(true)
        expect(transformed[0]).not.toBe(plain[0])
        const first = make()
        expect(first.compile()).toEqual(transformed)
        expect(first.compile(true)).toEqual(plain)
        expect(first.compile()).toEqual(transformed)
        const second = make()
        expect(second.compile(true)).toEqual(plain)
        expect(second.compile()).toEqual(transformed)
        expect(second.compile(true)).toEqual(plain)
        // run both ways, tracing off and on
        for (const traced of [false, true]) {
          const statement = make()
          const rows = yield* statement.pipe(Effect.withTracerEnabled(traced))
          const raw = yield* statement.withoutTransform.pipe(Effect.withTracerEnabled(traced))
          const again = yield* statement.pipe(Effect.withTracerEnabled(traced))
          expect(rows).toEqual([{ fooBar: 1 }])
          expect(raw).toEqual([{ fooBar: 2 }])
          expect(again).toEqual(rows)
        }
      })
    )

    it.effect("a statement compiled by another compiler answers that compiler's text", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const other = PgClient.makeCompiler()
        const statement = sql`SELECT ${sql("fooBar")} AS x`
        const mine = statement.compile()
        const theirs = other.compile(statement, false)
        expect(mine[0]).toContain('"foo_bar"')
        expect(theirs[0]).toContain('"fooBar"')
        expect(statement.compile()).toEqual(mine)
        expect(other.compile(statement, false)).toEqual(theirs)
        // the other way round: the other compiler first
        const reversed = sql`SELECT ${sql("fooBar")} AS x`
        expect(other.compile(reversed, false)).toEqual(theirs)
        expect(reversed.compile()).toEqual(mine)
        expect(other.compile(reversed, false)).toEqual(theirs)
      })
    )

    it.effect("the helpers answer alike with tracing on and off", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TEMP TABLE IF NOT EXISTS probe_items (item_id int PRIMARY KEY, item_name text)`
        const run = (traced: boolean) =>
          Effect.gen(function* () {
            yield* sql`DELETE FROM probe_items`
            yield* sql`INSERT INTO probe_items ${sql.insert([
              { itemId: 1, itemName: "a" },
              { itemId: 2, itemName: "b" },
              { itemId: 3, itemName: "c" }
            ])}`
            yield* sql`UPDATE probe_items SET item_name = data.item_name FROM ${sql.updateValues(
              [
                { itemId: 1, itemName: "A" },
                { itemId: 2, itemName: "B" }
              ],
              "data"
            )} WHERE probe_items.item_id = data.item_id::int`
            yield* sql`UPDATE probe_items SET ${sql.update({ itemId: 3, itemName: "C" }, ["itemId"])} WHERE item_id = ${3}`
            const rows = yield* sql`SELECT * FROM probe_items WHERE item_id IN ${sql.in([1, 2, 3])} ORDER BY item_id`
            const none = yield* sql`SELECT * FROM probe_items WHERE item_id IN ${sql.in([])}`
            const values = yield* sql`SELECT item_id FROM probe_items WHERE ${sql.in("itemId", [2])}`.values
            const unprepared = yield* sql`SELECT count(*)::int AS n FROM probe_items WHERE item_id > ${1}`.unprepared
            return { rows, none, values, unprepared }
          }).pipe(Effect.withTracerEnabled(traced), sql.withTransaction)
        const untraced = yield* run(false)
        const traced = yield* run(true)
        expect(untraced).toEqual(traced)
        expect(untraced.rows).toEqual([
          { itemId: 1, itemName: "A" },
          { itemId: 2, itemName: "B" },
          { itemId: 3, itemName: "C" }
        ])
        expect(untraced.none).toEqual([])
        expect(untraced.values).toEqual([[2]])
        expect(untraced.unprepared).toEqual([{ n: 2 }])
      })
    )

    it.effect("nested and concurrent transactions keep their connections and savepoints with tracing off", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const txid = sql<{ readonly tx: string }>`SELECT txid_current()::text AS tx`
        const one = sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`CREATE TEMP TABLE probe_nested (n int) ON COMMIT DROP`
            yield* sql`INSERT INTO probe_nested VALUES (1)`
            const outer = yield* txid
            const failed = yield* sql
              .withTransaction(
                Effect.gen(function* () {
                  yield* sql`INSERT INTO probe_nested VALUES (2)`
                  return yield* Effect.fail("inner" as const)
                })
              )
              .pipe(Effect.flip)
            const inner = yield* sql.withTransaction(
              Effect.gen(function* () {
                yield* sql`INSERT INTO probe_nested VALUES (3)`
                return yield* txid
              })
            )
            const rows = yield* sql<{ readonly n: number }>`SELECT n FROM probe_nested ORDER BY n`
            return { outer: outer[0]?.tx, inner: inner[0]?.tx, failed, rows: rows.map((r) => r.n) }
          })
        )
        const [a, b] = yield* Effect.all([one, one], { concurrency: 2 }).pipe(Effect.withTracerEnabled(false))
        for (const result of [a, b]) {
          expect(result.failed).toBe("inner")
          expect(result.inner).toBe(result.outer)
          expect(result.rows).toEqual([1, 3])
        }
        expect(a.outer).not.toBe(b.outer)
      })
    )
  })
})
