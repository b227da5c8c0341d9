/**
 * How long a message the author may write: 2000 characters, 4000 with Plus. A reference with the
 * free answer as its default, so this domain needs nothing of billing; the kit answers it from
 * billing's entitlements (`Billing.userLimits`).
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect } from "effect"
import { MAX_CONTENT } from "./Message.ts"

export interface Limits {
  /** Characters a message's content may have. */
  readonly contentLength: (userId: Snowflake.Snowflake) => Effect.Effect<number>
}

export const AuthorLimits: Context.Reference<Limits> = Context.Reference<Limits>("@veche/messages/AuthorLimits", {
  defaultValue: () => ({ contentLength: () => Effect.succeed(MAX_CONTENT) })
})
