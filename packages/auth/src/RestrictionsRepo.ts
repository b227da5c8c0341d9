/**
 * The port to account restrictions (one per account at most: setting a restriction replaces the
 * previous one), and its in-memory adapter. Unlike blocks, restrictions are not read with every
 * token lookup: only the flows they shut (friend requests, invitations) ask for them.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Ref } from "effect"
import type { Restriction } from "./Restriction.ts"

export class RestrictionsRepo extends Context.Service<
  RestrictionsRepo,
  {
    /** The restriction on this account, active or ended; none when there is none. */
    readonly find: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Restriction>>
    /** Sets the account's restriction, replacing any earlier one. */
    readonly put: (restriction: Restriction) => Effect.Effect<void>
    /** Lifts the restriction; false when there was none. */
    readonly remove: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/auth/RestrictionsRepo") {
  static readonly layerMemory: Layer.Layer<RestrictionsRepo> = Layer.effect(
    RestrictionsRepo,
    Effect.gen(function* () {
      const restrictions = yield* Ref.make<ReadonlyMap<string, Restriction>>(new Map())
      return RestrictionsRepo.of({
        find: (userId) => Effect.map(Ref.get(restrictions), (all) => Option.fromNullishOr(all.get(userId))),
        put: (restriction) => Ref.update(restrictions, (all) => new Map(all).set(restriction.userId, restriction)),
        remove: (userId) =>
          Ref.modify(restrictions, (all): [boolean, ReadonlyMap<string, Restriction>] => {
            if (!all.has(userId)) return [false, all]
            const next = new Map(all)
            next.delete(userId)
            return [true, next]
          })
      })
    })
  )
}
