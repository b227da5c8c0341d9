/** UsersRepo on PostgreSQL (table `users`, migration 0001; `bot` from 0020). */
import { Snowflake } from "@veche/platform"
import { UsersErrors, UsersRepo } from "@veche/users"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"

const UserRow = Schema.Struct({
  id: Schema.BigInt,
  username: Schema.String,
  display_name: Schema.NullOr(Schema.String),
  created_at: Schema.Date,
  bot: Schema.Boolean
})

const toUser = (row: typeof UserRow.Type) => ({
  id: Snowflake.Snowflake.make(String(row.id)),
  username: row.username,
  displayName: row.display_name,
  createdAt: DateTime.fromDateUnsafe(row.created_at),
  ...(row.bot ? { bot: true } : {})
})

export const layer: Layer.Layer<UsersRepo.UsersRepo, never, SqlClient.SqlClient> = Layer.effect(
  UsersRepo.UsersRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const findById = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: UserRow,
      execute: (id) => sql`SELECT id, username, display_name, created_at, bot FROM users WHERE id = ${id}`
    })
    const findByUsername = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: UserRow,
      execute: (username) =>
        sql`SELECT id, username, display_name, created_at, bot FROM users WHERE lower(username) = lower(${username})`
    })

    const setDisplayName = SqlSchema.findOneOption({
      Request: Schema.Struct({ id: Schema.String, displayName: Schema.NullOr(Schema.String) }),
      Result: UserRow,
      execute: ({ id, displayName }) =>
        sql`UPDATE users SET display_name = ${displayName} WHERE id = ${id}
            RETURNING id, username, display_name, created_at, bot`
    })

    return UsersRepo.UsersRepo.of({
      insert: (user) =>
        sql`INSERT INTO users ${sql.insert({
          id: user.id,
          username: user.username,
          display_name: user.displayName,
          created_at: DateTime.toDateUtc(user.createdAt),
          bot: user.bot === true
        })}`.pipe(
          Effect.asVoid,
          Effect.catchReason("SqlError", "UniqueViolation", (reason) =>
            Effect.fail(
              reason.constraint.includes("username")
                ? new UsersErrors.UsernameTaken({ username: user.username })
                : new UsersErrors.UserIdTaken({ id: user.id })
            )
          ),
          // Infrastructure failures are defects on purpose: they answer 500 at the edge.
          Effect.catchTag("SqlError", Effect.die)
        ),
      findById: (id) =>
        findById(id).pipe(
          Effect.map((row) => row.pipe(Option.map(toUser))),
          Effect.orDie
        ),
      findByUsername: (username) =>
        findByUsername(username).pipe(
          Effect.map((row) => row.pipe(Option.map(toUser))),
          Effect.orDie
        ),
      anonymise: (id) =>
        sql`UPDATE users SET username = ${UsersRepo.anonymousName(id)}, display_name = NULL WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      setDisplayName: (id, displayName) =>
        setDisplayName({ id, displayName }).pipe(
          Effect.map((row) => row.pipe(Option.map(toUser))),
          Effect.orDie
        )
    })
  })
)
