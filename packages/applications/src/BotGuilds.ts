/** The port through which a deleted application's bot leaves every guild it is in (guilds answer it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class BotGuilds extends Context.Service<
  BotGuilds,
  {
    /**
     * `ownerId` is the application's owner: a guild the bot still owns (from before bots were
     * refused ownership) goes to them if they are in it, so it is never left to a removed bot.
     */
    readonly removeEverywhere: (botId: Snowflake.Snowflake, ownerId: Snowflake.Snowflake) => Effect.Effect<void>
  }
>()("@veche/applications/BotGuilds") {}
