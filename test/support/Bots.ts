/**
 * Bots in guilds for route and gateway tests: the guild side of approving an OAuth `bot` request,
 * done directly through the Guilds service (the consent flow has tests of its own).
 */
import { Guilds } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { Effect } from "effect"
import { register } from "./Accounts.ts"
import { createApplication, resetBotToken } from "./ApplicationScenarios.ts"
import { createGuild } from "./Guilds.ts"

/** Adds the application's bot to the owner's guild with a managed role of `permissions`. */
export const addBotToGuild = (
  ownerId: string,
  guildId: string,
  bot: { readonly id: string; readonly name: string },
  permissions = 0n
) =>
  Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
    host.run(
      Effect.flatMap(Effect.service(Guilds.Guilds), (guilds) =>
        guilds.addBot(
          { userId: Snowflake.Snowflake.make(ownerId), bot: false },
          Snowflake.Snowflake.make(guildId),
          { userId: Snowflake.Snowflake.make(bot.id), name: bot.name },
          permissions
        )
      )
    )
  )

/** A bot of a new application, in a new guild of its owner (`botName` defaults to `${name} bot`). */
export const botInGuild = (phone: string, name: string, names: { guild?: string; bot?: string } = {}) =>
  Effect.gen(function* () {
    const owner = yield* register(phone, `${name}_owner`)
    const guild = yield* createGuild(owner.access_token, names.guild ?? `${name} guild`)
    const botName = names.bot ?? `${name} bot`
    const app = yield* createApplication(owner.access_token, botName)
    const token = yield* resetBotToken(owner.access_token, app.id)
    yield* addBotToGuild(owner.user_id, guild.id, { id: app.id, name: botName })
    return { owner, guild, app, token }
  })
