/**
 * The connection to PostgreSQL with the schema brought up to date. Every host that uses PostgreSQL
 * (the reference server on DATABASE_URL or on its embedded instance, integrators, tests) goes
 * through this layer, so migrations always run before the first repository query.
 */
import { PgClient } from "@effect/sql-pg"
import type { SessionsRepo } from "@veche/auth"
import { Config, Effect, Layer, type Redacted } from "effect"
import type { Migrator, SqlClient, SqlError } from "effect/sql"
import * as Migrations from "./Migrations.ts"
import * as PrincipalCache from "./PrincipalCache.ts"
import * as PrincipalHeartbeat from "./PrincipalHeartbeat.ts"

export interface Options {
  readonly url: Redacted.Redacted<string>
  /** Put every table in this schema (created if missing); tests use a fresh one per run. */
  readonly schema?: string | undefined
  readonly maxConnections?: number | undefined
  readonly applicationName?: string | undefined
  /**
   * Pipeline statements of concurrent requests on each pooled connection (default on). Without it
   * every statement holds a connection for a whole round trip, and at more requests in flight than
   * connections they queue in the pool: under load this doubled the latency of `GET /users/@me`.
   * Transactions still take a connection of their own. Turn it off for a pooler that cannot
   * pipeline.
   */
  readonly multiplex?: boolean | undefined
  /**
   * How many access-token lookups to keep in this process (PrincipalCache; default 10 000, 0 turns
   * it off). Kept exact by triggers that notify every node's connections of each change, so a pooler
   * that drops `LISTEN` (PgBouncer in transaction mode) needs it off.
   */
  readonly principalCacheEntries?: number | undefined
}

export const DEFAULT_PRINCIPAL_CACHE_ENTRIES = 10_000

export type Error = SqlError.SqlError | Migrator.MigrationError

export const layer = (
  options: Options
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | PrincipalCache.PrincipalCache, Error> => {
  const entries = options.principalCacheEntries ?? DEFAULT_PRINCIPAL_CACHE_ENTRIES
  // Off: a store that keeps nothing, and connections that do not listen.
  const cache = new PrincipalCache.Store<SessionsRepo.AccessLookup>(Math.max(0, entries), PrincipalHeartbeat.silence)
  const client = PgClient.layer({
    url: options.url,
    applicationName: options.applicationName ?? "veche",
    maxConnections: options.maxConnections,
    multiplex: options.multiplex ?? true,
    ...(options.schema === undefined ? {} : { startupParameters: { search_path: options.schema } }),
    ...(entries <= 0
      ? {}
      : {
          notifications: {
            channels: [PrincipalCache.CHANNEL, cache.beatChannel],
            onNotification: cache.onNotification,
            onLost: cache.flush
          }
        })
  })
  const migrate = Layer.effectDiscard(
    Effect.gen(function* () {
      if (options.schema !== undefined) {
        const sql = yield* PgClient.PgClient
        yield* sql`CREATE SCHEMA IF NOT EXISTS ${sql(options.schema)}`
      }
      const applied = yield* Migrations.run
      if (applied.length > 0) {
        yield* Effect.logInfo("database migrated", applied.map(([id, name]) => `${id}_${name}`).join(", "))
      }
      if (entries > 0) yield* PrincipalHeartbeat.beat(yield* PgClient.PgClient, cache)
    })
  )
  return Layer.merge(migrate.pipe(Layer.provideMerge(client)), PrincipalCache.layer(cache))
}

/**
 * DATABASE_URL (and optional DATABASE_SCHEMA, DATABASE_MAX_CONNECTIONS, DATABASE_MULTIPLEX,
 * DATABASE_PRINCIPAL_CACHE: entries kept, 0 off).
 */
export const layerConfig: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient | PrincipalCache.PrincipalCache,
  Error | Config.ConfigError
> = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* Config.Redacted("DATABASE_URL")
    const schema = yield* Config.String("DATABASE_SCHEMA").pipe(Config.option)
    const maxConnections = yield* Config.Int("DATABASE_MAX_CONNECTIONS").pipe(Config.withDefault(10))
    const multiplex = yield* Config.Boolean("DATABASE_MULTIPLEX").pipe(Config.withDefault(true))
    const principalCacheEntries = yield* Config.Int("DATABASE_PRINCIPAL_CACHE").pipe(
      Config.withDefault(DEFAULT_PRINCIPAL_CACHE_ENTRIES)
    )
    return layer({
      url,
      maxConnections,
      multiplex,
      principalCacheEntries,
      schema: schema._tag === "Some" ? schema.value : undefined
    })
  })
)
