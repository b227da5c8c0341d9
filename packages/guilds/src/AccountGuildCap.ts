/**
 * How many guilds a user's account may be in: 100, 200 with Plus (the mirrored platform's numbers).
 * A reference whose default is the free cap, so this domain needs nothing of billing; the kit
 * answers it from billing's entitlements. Bots are not capped and never ask.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect } from "effect"
import { MAX_GUILDS_PER_USER } from "./Guild.ts"

export interface Reader {
  readonly of: (userId: Snowflake.Snowflake) => Effect.Effect<number>
}

export const AccountGuildCap: Context.Reference<Reader> = Context.Reference<Reader>("@veche/guilds/AccountGuildCap", {
  defaultValue: () => ({ of: () => Effect.succeed(MAX_GUILDS_PER_USER) })
})
