/**
 * The port to sanctions: at most one of each kind per account (setting one replaces the previous
 * one of its kind; a block and a restriction of one account are apart). Ended sanctions stay stored
 * until replaced or lifted; whether one counts is the domain's question (`Sanction.isActive`).
 *
 * Blocks are also read on the session path: the accounts domain's SessionsRepo reads an access
 * token's session and its account's block in one store lookup (see `@veche/auth`'s SessionsRepo and
 * AccountBlocks), so a block takes effect on the very next request.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, type Option } from "effect"
import * as MemorySanctionsStore from "./internal/MemorySanctionsStore.ts"
import type { Kind, Sanction } from "./Sanction.ts"

export class SanctionsRepo extends Context.Service<
  SanctionsRepo,
  {
    /** The account's sanction of this kind, active or ended; none when there is none. */
    readonly find: (userId: Snowflake.Snowflake, kind: Kind) => Effect.Effect<Option.Option<Sanction>>
    /** Sets the account's sanction of its kind, replacing any earlier one of that kind. */
    readonly put: (sanction: Sanction) => Effect.Effect<void>
    /** Lifts the account's sanction of this kind; false when there was none. */
    readonly remove: (userId: Snowflake.Snowflake, kind: Kind) => Effect.Effect<boolean>
  }
>()("@veche/moderation/SanctionsRepo") {
  static readonly layerMemory: Layer.Layer<SanctionsRepo> = Layer.effect(
    SanctionsRepo,
    Effect.map(MemorySanctionsStore.make, (store) => SanctionsRepo.of(store))
  )
}
