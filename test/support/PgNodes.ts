/**
 * Nodes of a PostgreSQL test that share one database. The first is the suite's layer: a test host
 * over repositories on a fresh schema, the repositories (and the node's PrincipalCache) in view too.
 * A second node has repositories on a pool of its own (over the same schema, or through a relay)
 * and a test host over them, built with a memo map of their own: `Layer.build` inside an
 * @effect/vitest `layer(...)` suite would share the suite's memo map and hand back the first
 * node's layers (docs/traps.md).
 */
import { PgDatabase, PgRepositories, PgTestSchema, PrincipalCache } from "@veche/postgres"
import { TestHost } from "@veche/test-host"
import { Context, Effect, Layer, type Redacted } from "effect"
import { SqlClient } from "effect/sql"

export const firstNode = (url: Redacted.Redacted<string>, schema: string) => {
  const repositories = PgRepositories.layer.pipe(Layer.provideMerge(PgTestSchema.layer(url, schema)), Layer.orDie)
  return Layer.merge(TestHost.layer({ rateLimits: { enabled: false }, repositories }), repositories)
}

export const secondNode = (options: PgDatabase.Options) =>
  Effect.gen(function* () {
    const memoMap = yield* Layer.makeMemoMap
    const scope = yield* Effect.scope
    const repositories = yield* Layer.buildWithMemoMap(
      PgRepositories.layer.pipe(Layer.provideMerge(PgDatabase.layer(options)), Layer.orDie),
      memoMap,
      scope
    )
    const host = yield* Layer.buildWithMemoMap(
      TestHost.layer({ rateLimits: { enabled: false }, repositories: Layer.succeedContext(repositories) }),
      memoMap,
      scope
    )
    return {
      host: Context.get(host, TestHost.TestHost),
      cache: Context.get(repositories, PrincipalCache.PrincipalCache),
      sql: Context.get(repositories, SqlClient.SqlClient)
    }
  })
