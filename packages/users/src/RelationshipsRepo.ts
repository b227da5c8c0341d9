/**
 * The port to relationships (friends, requests, blocks), and its in-memory adapter. One row per
 * (user, other); setting a row replaces it. The friend routes that write them come with the
 * relationships work; reading is what profiles need now.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Ref } from "effect"
import type { Relationship } from "./Relationship.ts"

export class RelationshipsRepo extends Context.Service<
  RelationshipsRepo,
  {
    /** The user's relationships, oldest first. */
    readonly list: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Relationship>>
    readonly put: (relationship: Relationship) => Effect.Effect<void>
    readonly remove: (userId: Snowflake.Snowflake, otherId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/users/RelationshipsRepo") {
  static readonly layerMemory: Layer.Layer<RelationshipsRepo> = Layer.effect(
    RelationshipsRepo,
    Effect.gen(function* () {
      const rows = yield* Ref.make<ReadonlyArray<Relationship>>([])
      const same = (a: Relationship, userId: string, otherId: string) => a.userId === userId && a.otherId === otherId
      return RelationshipsRepo.of({
        list: (userId) => Effect.map(Ref.get(rows), (all) => all.filter((row) => row.userId === userId)),
        put: (relationship) =>
          Ref.update(rows, (all) => {
            const index = all.findIndex((row) => same(row, relationship.userId, relationship.otherId))
            return index < 0 ? [...all, relationship] : all.map((row, i) => (i === index ? relationship : row))
          }),
        remove: (userId, otherId) =>
          Ref.modify(rows, (all): [boolean, ReadonlyArray<Relationship>] => {
            const next = all.filter((row) => !same(row, userId, otherId))
            return [next.length !== all.length, next]
          })
      })
    })
  )
}
