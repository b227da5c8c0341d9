/**
 * What staff see of an account's paid state when they look it up: Plus (whether it is in force and
 * until when) and boost slots (in force, and how many are not applied to a guild). Billing sits
 * above moderation in the stack, so this is a reference whose default is the account without
 * either; the kit answers it from billing's store.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, Effect } from "effect"

export interface Facts {
  readonly plusActive: boolean
  /** The end of the Plus term, past or future; null when the account never had Plus. */
  readonly premiumUntil: DateTime.Utc | null
  /** Boost slots whose term has not ended. */
  readonly boostsTotal: number
  /** Of those, the ones not applied to a guild. */
  readonly boostsFree: number
}

export const NONE: Facts = { plusActive: false, premiumUntil: null, boostsTotal: 0, boostsFree: 0 }

export interface Reader {
  readonly of: (userId: Snowflake.Snowflake) => Effect.Effect<Facts>
}

export const AccountBilling: Context.Reference<Reader> = Context.Reference<Reader>("@veche/moderation/AccountBilling", {
  defaultValue: () => ({ of: () => Effect.succeed(NONE) })
})
