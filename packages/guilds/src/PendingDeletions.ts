/**
 * Whether an account is waiting for its deletion (asked for it, not yet carried out nor cancelled).
 * Such an account may not be handed a guild: deletion is refused to an owner of a guild with other
 * members (users' `Memberships`), and a guild handed over during the wait would be left to an
 * account about to be erased. A reference whose default is "none waiting", so this domain needs
 * nothing of privacy (above it in the picture); the kit answers it from privacy's deletion requests.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect } from "effect"

export interface Reader {
  readonly isPending: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
}

export const PendingDeletions: Context.Reference<Reader> = Context.Reference<Reader>("@veche/guilds/PendingDeletions", {
  defaultValue: () => ({ isPending: () => Effect.succeed(false) })
})
