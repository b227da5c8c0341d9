/**
 * The port to account blocks (one per account at most: setting a block replaces the previous one),
 * and its in-memory adapter. Reading a session's access token also reads its account's block, in
 * the same store lookup (see SessionsRepo), so a block takes effect on the very next request.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option, Ref } from "effect"
import type { Block } from "./Block.ts"

export class BlocksRepo extends Context.Service<
  BlocksRepo,
  {
    /** The block on this account, active or ended; none when there is none. */
    readonly find: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Block>>
    /** Sets the account's block, replacing any earlier one. */
    readonly put: (block: Block) => Effect.Effect<void>
    /** Lifts the block; false when there was none. */
    readonly remove: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
  }
>()("@veche/auth/BlocksRepo") {
  static readonly layerMemory: Layer.Layer<BlocksRepo> = Layer.effect(
    BlocksRepo,
    Effect.gen(function* () {
      const blocks = yield* Ref.make<ReadonlyMap<string, Block>>(new Map())
      return BlocksRepo.of({
        find: (userId) => Effect.map(Ref.get(blocks), (all) => Option.fromNullishOr(all.get(userId))),
        put: (block) => Ref.update(blocks, (all) => new Map(all).set(block.userId, block)),
        remove: (userId) =>
          Ref.modify(blocks, (all): [boolean, ReadonlyMap<string, Block>] => {
            if (!all.has(userId)) return [false, all]
            const next = new Map(all)
            next.delete(userId)
            return [true, next]
          })
      })
    })
  )
}
