/**
 * The `pg` driver for the bench's own database work (the @me floor, the bench schema), typed here by
 * hand: only what the bench uses. Resolved at run time so a missing driver names the fix instead of
 * failing the type check; the server itself does not use it (@effect/sql-pg has its own protocol).
 */
import { createRequire } from "node:module"

export interface QueryConfig {
  /** A name makes it a prepared statement, parsed once per connection (as @effect/sql-pg does). */
  readonly name?: string
  readonly text: string
  readonly values?: ReadonlyArray<unknown>
}

export interface Pool {
  readonly query: <Row>(query: QueryConfig) => Promise<{ readonly rows: Array<Row> }>
  readonly end: () => Promise<void>
}

interface PgModule {
  readonly Pool: new (config: {
    readonly connectionString: string
    readonly max?: number
    readonly options?: string
    readonly application_name?: string
  }) => Pool
}

const load = (): PgModule => {
  try {
    return createRequire(import.meta.url)("pg")
  } catch (cause) {
    throw new Error("the bench needs the `pg` driver: pnpm add -D -w pg", { cause })
  }
}

/** A pool on `url` whose connections look in `schema` first. */
export const pool = (url: string, options: { readonly schema: string; readonly max?: number }): Pool =>
  new (load().Pool)({
    connectionString: url,
    max: options.max ?? 10,
    options: `-c search_path=${options.schema}`,
    application_name: "veche-bench"
  })
