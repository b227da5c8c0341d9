/**
 * The bench's PostgreSQL: DATABASE_URL, or else one embedded PostgreSQL in the bench's temporary
 * folder (started as the server would start its own). Every server and floor of a run works in one
 * fresh schema of it, dropped afterwards: nothing accumulates from run to run, no run sees another's
 * rows, and the database's `public` schema is left alone.
 */
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import * as Pg from "./Pg.ts"

export interface Database {
  readonly url: string
  readonly schema: string
  /** Where it came from, for the table's heading. */
  readonly label: string
  /** Drops the schema (and stops the embedded PostgreSQL, if any). */
  readonly close: () => Promise<void>
}

/** The server's own embedded PostgreSQL, loaded only when needed. */
const startEmbedded = async (dataDir: string, scope: Scope.Closeable): Promise<string> => {
  const { EmbeddedPostgres } = await import("@veche/embedded-postgres")
  const context = await Effect.runPromise(
    Layer.buildWithScope(EmbeddedPostgres.EmbeddedPostgres.layer({ dataDir }), scope)
  )
  return Redacted.value(Context.get(context, EmbeddedPostgres.EmbeddedPostgres).url)
}

export const open = async (dataDir: string): Promise<Database> => {
  const scope = await Effect.runPromise(Scope.make())
  const stopEmbedded = () => Effect.runPromise(Scope.close(scope, Exit.void))
  const configured = process.env.DATABASE_URL?.trim() ?? ""
  // Unique per run, and a plain identifier: safe to write into DDL as it is.
  const schema = `veche_bench_${Date.now()}_${process.pid}`
  let url: string
  let admin: Pg.Pool
  try {
    url = configured !== "" ? configured : await startEmbedded(dataDir, scope)
    admin = Pg.pool(url, { schema: "public", max: 1 })
    await admin.query({ text: `CREATE SCHEMA ${schema}` })
  } catch (error) {
    await stopEmbedded() // an embedded PostgreSQL must not outlive a run that could not use it
    throw error
  }
  return {
    url,
    schema,
    label: configured !== "" ? `DATABASE_URL, schema ${schema}` : `embedded PostgreSQL, schema ${schema}`,
    close: async () => {
      try {
        await admin.query({ text: `DROP SCHEMA IF EXISTS ${schema} CASCADE` })
      } finally {
        await admin.end()
        await stopEmbedded()
      }
    }
  }
}
