/**
 * Reading a query's rows as domain values: decode every row with the table's Schema, map it, and
 * treat a row that does not decode as a defect (the schema and the migrations disagree: a bug, not
 * bad input). `one` is the first value, if any.
 */
import { Effect, Option, Schema } from "effect"

export const of = <S extends Schema.Top & { readonly DecodingServices: never }, A>(
  row: S,
  toValue: (row: S["Type"]) => A
) => {
  const decode = Schema.decodeUnknownEffect(Schema.Array(row))
  const many = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<ReadonlyArray<A>, never, R> =>
    query.pipe(
      Effect.flatMap(decode),
      Effect.map((rows) => rows.map(toValue)),
      Effect.orDie
    )
  const one = <E, R>(query: Effect.Effect<ReadonlyArray<unknown>, E, R>): Effect.Effect<Option.Option<A>, never, R> =>
    Effect.map(many(query), (values) => Option.fromNullishOr(values[0]))
  return { many, one }
}
