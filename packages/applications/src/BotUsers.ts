/**
 * The port through which an application's bot gets its user row (the users domain answers it): a
 * user with the application's id, named after the application, and, when the application is
 * deleted, freed of its name like a deleted account.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class BotUsers extends Context.Service<
  BotUsers,
  {
    /** Creates the bot's user; the username is derived from `name` and made unique. Answers it. */
    readonly create: (id: Snowflake.Snowflake, name: string) => Effect.Effect<string>
    /** The bot is gone: its user stays (messages refer to it) but its name is freed. */
    readonly retire: (id: Snowflake.Snowflake) => Effect.Effect<void>
  }
>()("@veche/applications/BotUsers") {}
