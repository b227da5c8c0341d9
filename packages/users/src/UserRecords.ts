/**
 * A user's own records (the user row and the profile), written and read by another domain's memory
 * adapter: auth's memory accounts insert the user of a registration here, and its memory account
 * snapshot reads the user and the profile. So no other domain names this domain's repositories; on
 * PostgreSQL those adapters answer in one transaction or query and do not use this service.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, type Option } from "effect"
import type { Profile } from "./Profile.ts"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import type { User } from "./User.ts"
import type { UserIdTaken, UsernameTaken } from "./UsersErrors.ts"
import { UsersRepo } from "./UsersRepo.ts"

export class UserRecords extends Context.Service<
  UserRecords,
  {
    /** Inserts a new user. UsernameTaken in any letter case; UserIdTaken when the id exists. */
    readonly insert: (user: User) => Effect.Effect<void, UsernameTaken | UserIdTaken>
    readonly findUser: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<User>>
    /** The user's profile (the empty one when none was written). */
    readonly findProfile: (userId: Snowflake.Snowflake) => Effect.Effect<Profile>
  }
>()("@veche/users/UserRecords") {
  /** Over whatever UsersRepo and ProfilesRepo are given: the same rows the users domain serves. */
  static readonly layer: Layer.Layer<UserRecords, never, UsersRepo | ProfilesRepo> = Layer.effect(
    UserRecords,
    Effect.gen(function* () {
      const users = yield* UsersRepo
      const profiles = yield* ProfilesRepo
      return UserRecords.of({
        insert: users.insert,
        findUser: users.findById,
        findProfile: profiles.get
      })
    })
  )
}
