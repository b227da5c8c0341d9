/**
 * A `SqlClient` built the way `@effect/sql-pg` builds its own (pooled connections lent per statement
 * through `Pool.use`, PostgreSQL's placeholders, its span attributes) over a connection that answers
 * every statement at once with one row and never touches a socket: what is left of a statement's
 * cost is the sql layer's own work (statement, compile, span, pool), without the driver's or the
 * network's, so it is steady enough to compare two builds of effect on a busy machine.
 */
import { Effect, Pool, type Scope } from "effect"
import type { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlConnection, SqlError, Statement } from "effect/sql"

const ROWS: ReadonlyArray<object> = [{ one: 1 }]

const unsupported = Effect.fail(
  new SqlError.SqlError({
    reason: new SqlError.UnknownError({ cause: "echo", message: "not supported by the echo client" })
  })
)

const connection: SqlConnection.Connection = {
  execute: () => Effect.succeed(ROWS),
  executeRaw: () => unsupported,
  executeStream: () => Effect.die("echo: no streams") as never,
  executeValues: () => unsupported,
  executeValuesUnprepared: () => unsupported,
  executeUnprepared: () => Effect.succeed(ROWS)
}

const quoteIdentifier = Statement.defaultEscape('"')

export const make: Effect.Effect<SqlClient.SqlClient, never, Scope.Scope | Reactivity.Reactivity> = Effect.gen(
  function* () {
    const pool = yield* Pool.make({ acquire: Effect.succeed(connection), size: 10, concurrency: 32 })
    return yield* SqlClient.make({
      acquirer: Pool.get(pool),
      borrower: (f) => Pool.use(pool, f),
      compiler: Statement.makeCompiler({
        dialect: "pg",
        placeholder: (index) => `$${index}`,
        onIdentifier: quoteIdentifier,
        onRecordUpdate: () => ["", []],
        onCustom: () => ["", []]
      }),
      driver: "echo",
      spanAttributes: [
        ["db.system.name", "postgresql"],
        ["db.namespace", "test"],
        ["server.address", "127.0.0.1"],
        ["server.port", 5432]
      ]
    })
  }
)
