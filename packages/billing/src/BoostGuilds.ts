/**
 * What billing asks the guilds domain about the guilds boosts go to (the kit answers it over
 * guilds): whether the caller is a member, and a signal that a guild's tier changed so the
 * guilds domain publishes GUILD_UPDATE with the new `premium_tier`.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer } from "effect"

export class BoostGuilds extends Context.Service<
  BoostGuilds,
  {
    /** Whether the user is a member of the guild (false for an unknown guild). */
    readonly isMember: (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /** The guild's boost count or tier changed: tell its members. */
    readonly premiumChanged: (guildId: Snowflake.Snowflake) => Effect.Effect<void>
  }
>()("@veche/billing/BoostGuilds") {
  /** For tests of billing alone: every user is a member of every guild; changes go nowhere. */
  static readonly layerOpen: Layer.Layer<BoostGuilds> = Layer.succeed(
    BoostGuilds,
    BoostGuilds.of({ isMember: () => Effect.succeed(true), premiumChanged: () => Effect.void })
  )
}
