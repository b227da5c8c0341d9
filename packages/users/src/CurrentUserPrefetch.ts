/**
 * What `CurrentUser.view` would read, already read: the Authorization middleware of a route that
 * shows the caller (`GET /users/@me`) asks the token's lookup for the account too (one statement on
 * PostgreSQL) and puts the answer here for the request. `view` uses it only for the same user; unset
 * (every other route, stores that cannot read both at once), `view` reads the account itself.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type Option } from "effect"
import type { Details } from "./AccountDetails.ts"

export interface Prefetched {
  readonly userId: Snowflake.Snowflake
  /** None: the account is gone. */
  readonly details: Option.Option<Details>
  /** The guilds the user is in, oldest membership first (as `Memberships.guildsOf`). */
  readonly guildIds: ReadonlyArray<Snowflake.Snowflake>
  /** The user object's `premium_type` (as `ProfileEntitlements.of`). */
  readonly premiumType: number
}

export const CurrentUserPrefetch: Context.Reference<Prefetched | undefined> = Context.Reference<Prefetched | undefined>(
  "@veche/users/CurrentUserPrefetch",
  { defaultValue: () => undefined }
)
