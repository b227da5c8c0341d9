/**
 * The server's PostgreSQL: DATABASE_URL when set, else an embedded PostgreSQL in the data folder,
 * migrated either way before the first request is served.
 */

import * as path from "node:path"
import { EmbeddedPostgres } from "@veche/embedded-postgres"
import { PgDatabase } from "@veche/postgres"
import { Effect, Layer, Option } from "effect"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (config: ServerConfig) =>
  Option.match(config.databaseUrl, {
    onSome: (url) =>
      PgDatabase.layer({
        url,
        schema: Option.getOrUndefined(config.databaseSchema),
        maxConnections: config.databaseMaxConnections,
        multiplex: config.databaseMultiplex,
        principalCacheEntries: config.databasePrincipalCache
      }),
    onNone: () =>
      Layer.unwrap(
        Effect.map(EmbeddedPostgres.EmbeddedPostgres, (embedded) =>
          PgDatabase.layer({
            url: embedded.url,
            maxConnections: config.databaseMaxConnections,
            multiplex: config.databaseMultiplex,
            principalCacheEntries: config.databasePrincipalCache
          })
        )
      ).pipe(Layer.provide(EmbeddedPostgres.EmbeddedPostgres.layer({ dataDir: path.resolve(config.dataDir) })))
  })
