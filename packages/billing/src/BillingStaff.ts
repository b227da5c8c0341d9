/** The port through which staff grants ask whether the caller is platform staff (moderation answers it). */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect } from "effect"

export class BillingStaff extends Context.Service<
  BillingStaff,
  { readonly isStaff: (userId: Snowflake.Snowflake) => Effect.Effect<boolean> }
>()("@veche/billing/BillingStaff") {}
