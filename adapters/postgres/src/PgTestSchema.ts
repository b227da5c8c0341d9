/**
 * A throw-away schema on a real PostgreSQL for test suites: created and migrated when the layer is
 * built, dropped when its scope closes, so parallel and repeated runs never see each other's rows.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, type Redacted } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgDatabase from "./PgDatabase.ts"
import type * as PrincipalCache from "./PrincipalCache.ts"

/** A schema name no other run uses. */
export const freshName = (): string =>
  `veche_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`

const dropOnClose = (url: Redacted.Redacted<string>, schema: string) =>
  Layer.effectDiscard(
    Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient
        yield* sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`
      }).pipe(Effect.provide(PgClient.layer({ url, maxConnections: 1 })), Effect.orDie)
    )
  )

/** `schema`: a name of the caller's (from `freshName`), to reach the same tables from a second client. */
export const layer = (
  url: Redacted.Redacted<string>,
  schema: string = freshName()
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | PrincipalCache.PrincipalCache, PgDatabase.Error> => {
  return PgDatabase.layer({ url, schema, maxConnections: 4 }).pipe(Layer.provideMerge(dropOnClose(url, schema)))
}
