/**
 * The port through which the accounts domain reads an account's platform block (login, refresh and
 * recovery ask it before a new token pair; the memory SessionsRepo asks it on each token lookup).
 * Declared here, below the moderation domain that sets blocks and answers it, so auth never
 * imports moderation. A host without moderation gives `layerNone`: nobody is blocked.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import type { Block } from "./Block.ts"

export class AccountBlocks extends Context.Service<
  AccountBlocks,
  {
    /** The block on this account, active or ended; none when there is none. */
    readonly find: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Block>>
  }
>()("@veche/auth/AccountBlocks") {
  /** No account is ever blocked (a host that wires no moderation). */
  static readonly layerNone: Layer.Layer<AccountBlocks> = Layer.succeed(
    AccountBlocks,
    AccountBlocks.of({ find: () => Effect.succeed(Option.none()) })
  )
}
