/**
 * The port through which staff grants ask whether the caller is platform staff and whether the
 * account they grant to exists, and tell the staff audit log what they granted (moderation and the
 * users domain answer, through the kit).
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, type Effect } from "effect"

/** A staff grant as the audit log keeps it. */
export interface GrantRecord {
  readonly staffId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
  readonly kind: "plus" | "boosts"
  readonly months: number
  /** Boost slots granted (0 for Plus). */
  readonly count: number
  /** Plus: the new end of the subscription. */
  readonly until: DateTime.Utc | null
}

export class BillingStaff extends Context.Service<
  BillingStaff,
  {
    readonly isStaff: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    /** A person's account (not a bot's): the billing tables hold no reference to accounts, so a grant asks first. */
    readonly accountExists: (userId: Snowflake.Snowflake) => Effect.Effect<boolean>
    readonly recordGrant: (grant: GrantRecord) => Effect.Effect<void>
  }
>()("@veche/billing/BillingStaff") {}
