/**
 * The port through which the catalogue reads guilds and lets a user join one (the guilds domain
 * answers it: its records for the facts, its invitation path for the join). The catalogue never
 * reads the guilds' storage itself.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, type Effect, type Option } from "effect"

/** What a card shows of a guild. */
export interface GuildCard {
  readonly id: Snowflake.Snowflake
  readonly name: string
  readonly icon: string | null
  readonly banner: string | null
  readonly features: ReadonlyArray<string>
  readonly memberCount: number
}

/** What publication checks besides. */
export interface GuildFacts extends GuildCard {
  readonly ownerId: Snowflake.Snowflake
  /** 0 none … 4 very high. */
  readonly verificationLevel: number
  readonly rulesChannelId: Snowflake.Snowflake | null
  readonly createdAt: DateTime.Utc
  readonly channelNames: ReadonlyArray<string>
}

/** Why a join was refused, as the invitation path refuses it (the guilds domain's conditions). */
export type JoinRefusal = "banned" | "restricted" | "verification" | "guild_limit" | "gone"

export class CatalogueGuilds extends Context.Service<
  CatalogueGuilds,
  {
    readonly find: (guildId: Snowflake.Snowflake) => Effect.Effect<Option.Option<GuildFacts>>
    /** Several at once (a page of cards); absent ids are left out. */
    readonly cards: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, GuildCard>>
    /** Member counts (kept with each guild: cheap for the whole candidate list); absent ids are left out. */
    readonly memberCounts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
    /**
     * The user joins as through an invitation (the same checks: restriction, ban, verification
     * level, guild cap); false when they were a member already.
     */
    readonly join: (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) => Effect.Effect<boolean, JoinRefusal>
  }
>()("@veche/discovery/CatalogueGuilds") {}
