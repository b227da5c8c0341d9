/** SanctionsRepo's in-memory adapter: one map keyed by kind and account. */
import type { Snowflake } from "@veche/platform"
import { Effect, Option, Ref } from "effect"
import type { Kind, Sanction } from "../Sanction.ts"

const keyOf = (userId: Snowflake.Snowflake, kind: Kind) => `${kind}:${userId}`

export const make = Effect.gen(function* () {
  const sanctions = yield* Ref.make<ReadonlyMap<string, Sanction>>(new Map())
  return {
    find: (userId: Snowflake.Snowflake, kind: Kind) =>
      Effect.map(Ref.get(sanctions), (all) => Option.fromNullishOr(all.get(keyOf(userId, kind)))),
    put: (sanction: Sanction) =>
      Ref.update(sanctions, (all) => new Map(all).set(keyOf(sanction.userId, sanction.kind), sanction)),
    remove: (userId: Snowflake.Snowflake, kind: Kind) =>
      Ref.modify(sanctions, (all): [boolean, ReadonlyMap<string, Sanction>] => {
        const key = keyOf(userId, kind)
        if (!all.has(key)) return [false, all]
        const next = new Map(all)
        next.delete(key)
        return [true, next]
      })
  }
})
