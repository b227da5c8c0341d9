/**
 * Users as everybody sees them, looked up by id: what members, bans and invitations embed. A user
 * is shown as a bot when its record says so (an application's bot user) or the caller knows it (a
 * member holding its bot role).
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import * as PublicUser from "./PublicUser.ts"
import { UsersRepo } from "./UsersRepo.ts"

export class PublicUsers extends Context.Service<
  PublicUsers,
  {
    readonly find: (userId: Snowflake.Snowflake, bot?: boolean) => Effect.Effect<Option.Option<PublicUser.PublicUser>>
    /** By username, in any letter case (as usernames are unique): whether a name is taken. */
    readonly findByUsername: (username: string) => Effect.Effect<Option.Option<PublicUser.PublicUser>>
    /** Several at once; unknown ids are left out. */
    readonly findMany: (
      userIds: ReadonlyArray<Snowflake.Snowflake>,
      isBot?: (userId: Snowflake.Snowflake) => boolean
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, PublicUser.PublicUser>>
  }
>()("@veche/users/PublicUsers") {
  static readonly layer: Layer.Layer<PublicUsers, never, UsersRepo | ProfilesRepo> = Layer.effect(
    PublicUsers,
    Effect.gen(function* () {
      const users = yield* UsersRepo
      const profiles = yield* ProfilesRepo
      const find = (userId: Snowflake.Snowflake, bot = false) =>
        Effect.flatMap(users.findById(userId), (user) =>
          Option.isNone(user)
            ? Effect.succeedNone
            : Effect.map(profiles.get(userId), (profile) =>
                Option.some(PublicUser.view(user.value, profile, bot || user.value.bot === true))
              )
        )
      return PublicUsers.of({
        find,
        findByUsername: (username) =>
          Effect.flatMap(users.findByUsername(username), (user) =>
            Option.isNone(user) ? Effect.succeedNone : find(user.value.id)
          ),
        findMany: (userIds, isBot = () => false) =>
          Effect.map(
            Effect.forEach([...new Set(userIds)], (userId) => find(userId, isBot(userId)), { concurrency: 8 }),
            (found) => new Map(found.flatMap((user) => (Option.isSome(user) ? [[user.value.id, user.value]] : [])))
          )
      })
    })
  )
}
