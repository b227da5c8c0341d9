/**
 * What a user's profile may show beyond the free account's: a banner, and an avatar that stays
 * animated. The mirrored platform keeps both for its paid plan (here: Plus). A reference whose
 * default is the free answer (neither), so this domain needs nothing of billing; the kit answers it
 * from billing's entitlements.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect } from "effect"

export interface Entitlements {
  /** A banner may be set (removing one is always allowed). */
  readonly banner: boolean
  /** An animated avatar stays animated; without it the first frame is kept. */
  readonly animatedAvatar: boolean
  /** The user object's `premium_type` (0 none, 2 the paid plan: the mirrored platform's numbers). */
  readonly premiumType: number
}

export const FREE: Entitlements = { banner: false, animatedAvatar: false, premiumType: 0 }

export interface Reader {
  readonly of: (userId: Snowflake.Snowflake) => Effect.Effect<Entitlements>
}

export const ProfileEntitlements: Context.Reference<Reader> = Context.Reference<Reader>(
  "@veche/users/ProfileEntitlements",
  { defaultValue: () => ({ of: () => Effect.succeed(FREE) }) }
)
