/** The port through which a deleted application's bot leaves every guild it is in (guilds answer it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class BotGuilds extends Context.Service<
  BotGuilds,
  { readonly removeEverywhere: (botId: Snowflake.Snowflake) => Effect.Effect<void> }
>()("@veche/applications/BotGuilds") {}
