/**
 * A user's relationships (friends, requests, blocks) with the other user of each as everybody sees
 * them. Rows whose other user no longer exists are left out. Only reading exists today: the friend
 * requests that write rows come with the friends work, and their rules belong here.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import { ProfilesRepo } from "./ProfilesRepo.ts"
import * as PublicUser from "./PublicUser.ts"
import type { Relationship } from "./Relationship.ts"
import { RelationshipsRepo } from "./RelationshipsRepo.ts"
import { UsersRepo } from "./UsersRepo.ts"

export interface Shown {
  readonly relationship: Relationship
  readonly user: PublicUser.PublicUser
}

export class Relationships extends Context.Service<
  Relationships,
  {
    /** The user's relationships, oldest first. */
    readonly list: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Shown>>
  }
>()("@veche/users/Relationships") {
  static readonly layer: Layer.Layer<Relationships, never, RelationshipsRepo | UsersRepo | ProfilesRepo> = Layer.effect(
    Relationships,
    Effect.gen(function* () {
      const relationships = yield* RelationshipsRepo
      const users = yield* UsersRepo
      const profiles = yield* ProfilesRepo
      const shown = (relationship: Relationship) =>
        Effect.flatMap(users.findById(relationship.otherId), (other) =>
          Option.isNone(other)
            ? Effect.succeedNone
            : Effect.map(profiles.get(relationship.otherId), (profile) =>
                Option.some<Shown>({ relationship, user: PublicUser.view(other.value, profile, false) })
              )
        )
      const list = Spans.fn("Relationships.list")(function* (userId: Snowflake.Snowflake) {
        const rows = yield* relationships.list(userId)
        const found = yield* Effect.forEach(rows, shown)
        return found.flatMap((one) => Option.toArray(one))
      })
      return Relationships.of({ list })
    })
  )
}
