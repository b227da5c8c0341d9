/**
 * The port the catalogue sorts by: how many members of each guild are online. The gateway's
 * presence answers it once it exists; until then `layerNone` answers 0 for every guild, and the
 * catalogue sorts by members alone (the sort already reads this port first).
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"

export class OnlineCounts extends Context.Service<
  OnlineCounts,
  {
    readonly counts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
  }
>()("@veche/discovery/OnlineCounts") {
  /** Nobody is online (no presence yet): every guild counts 0. */
  static readonly layerNone: Layer.Layer<OnlineCounts> = Layer.succeed(
    OnlineCounts,
    OnlineCounts.of({ counts: (guildIds) => Effect.succeed(new Map(guildIds.map((id) => [id, 0]))) })
  )
}
