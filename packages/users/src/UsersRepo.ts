/**
 * The port to the users table, and its in-memory adapter. Usernames are unique without regard to
 * letter case; the adapters settle that themselves (a unique index on PostgreSQL), so two
 * concurrent registrations of one name cannot both succeed.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Ref } from "effect"
import * as PublicUser from "./PublicUser.ts"
import type { User } from "./User.ts"
import { UserIdTaken, UsernameTaken } from "./UsersErrors.ts"

export class UsersRepo extends Context.Service<
  UsersRepo,
  {
    readonly insert: (user: User) => Effect.Effect<void, UsernameTaken | UserIdTaken>
    readonly findById: (id: Snowflake.Snowflake) => Effect.Effect<Option.Option<User>>
    readonly findByUsername: (username: string) => Effect.Effect<Option.Option<User>>
    /** Sets or clears (null) the display name; answers the user as it now is, none if unknown. */
    readonly setDisplayName: (id: Snowflake.Snowflake, displayName: string | null) => Effect.Effect<Option.Option<User>>
    /** A deleted account: its name is freed (`deleted_user_<id>`) and its display name removed. */
    readonly anonymise: (id: Snowflake.Snowflake) => Effect.Effect<void>
  }
>()("@veche/users/UsersRepo") {
  static readonly layerMemory: Layer.Layer<UsersRepo> = Layer.effect(
    UsersRepo,
    Effect.gen(function* () {
      const byId = yield* Ref.make(new Map<string, User>())
      const key = (username: string) => username.toLowerCase()
      return UsersRepo.of({
        insert: (user) =>
          Ref.modify(byId, (users): [Effect.Effect<void, UsernameTaken | UserIdTaken>, Map<string, User>] => {
            if (users.has(user.id)) return [Effect.fail(new UserIdTaken({ id: user.id })), users]
            for (const other of users.values()) {
              if (key(other.username) === key(user.username)) {
                return [Effect.fail(new UsernameTaken({ username: user.username })), users]
              }
            }
            return [Effect.void, new Map(users).set(user.id, user)]
          }).pipe(Effect.flatten),
        findById: (id) => Ref.get(byId).pipe(Effect.map((users) => Option.fromNullishOr(users.get(id)))),
        anonymise: (id) =>
          Ref.update(byId, (users) => {
            const user = users.get(id)
            if (user === undefined) return users
            return new Map(users).set(id, { ...user, username: anonymousName(id), displayName: null })
          }),
        setDisplayName: (id, displayName) =>
          Ref.modify(byId, (users): [Option.Option<User>, Map<string, User>] => {
            const user = users.get(id)
            if (user === undefined) return [Option.none(), users]
            const next = { ...user, displayName }
            return [Option.some(next), new Map(users).set(id, next)]
          }),
        findByUsername: (username) =>
          Ref.get(byId).pipe(
            Effect.map((users) => {
              for (const user of users.values()) if (key(user.username) === key(username)) return Option.some(user)
              return Option.none()
            })
          )
      })
    })
  )
}

/** The name a deleted account keeps (`PublicUser.anonymousName`), here for the stores that write it. */
export const anonymousName = PublicUser.anonymousName
