/**
 * A guild's boost tier and active boost count, as the guild object shows them (`premium_tier`,
 * `premium_subscription_count`). A reference whose default is "no boosts", so this domain needs
 * nothing of billing; the kit answers it from billing's boost slots.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect } from "effect"

export interface Premium {
  readonly tier: 0 | 1 | 2 | 3
  readonly count: number
}

export const NONE: Premium = { tier: 0, count: 0 }

export interface Reader {
  readonly of: (guildId: Snowflake.Snowflake) => Effect.Effect<Premium>
}

export const GuildPremium: Context.Reference<Reader> = Context.Reference<Reader>("@veche/guilds/GuildPremium", {
  defaultValue: () => ({ of: () => Effect.succeed(NONE) })
})
