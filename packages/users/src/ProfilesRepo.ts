/**
 * The port to profiles (see Profile), and its in-memory adapter. A change is one atomic step of the
 * store (read-modify-write never spans two steps), so concurrent changes to different fields of one
 * profile both land.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Ref } from "effect"
import { apply, DEFAULT, type Profile, type ProfileChange } from "./Profile.ts"

export class ProfilesRepo extends Context.Service<
  ProfilesRepo,
  {
    /** The stored profile, or the defaults. */
    readonly get: (userId: Snowflake.Snowflake) => Effect.Effect<Profile>
    /** Applies the change and answers the profile as it now is. */
    readonly update: (userId: Snowflake.Snowflake, change: ProfileChange) => Effect.Effect<Profile>
  }
>()("@veche/users/ProfilesRepo") {
  static readonly layerMemory: Layer.Layer<ProfilesRepo> = Layer.effect(
    ProfilesRepo,
    Effect.gen(function* () {
      const profiles = yield* Ref.make<ReadonlyMap<string, Profile>>(new Map())
      return ProfilesRepo.of({
        get: (userId) => Effect.map(Ref.get(profiles), (all) => all.get(userId) ?? DEFAULT),
        update: (userId, change) =>
          Ref.modify(profiles, (all): [Profile, ReadonlyMap<string, Profile>] => {
            const next = apply(all.get(userId) ?? DEFAULT, change)
            return [next, new Map(all).set(userId, next)]
          })
      })
    })
  )
}
