/**
 * The port through which the users domain reads what the accounts domain (@veche/auth) knows of a
 * user and CurrentUser shows: contact addresses, verification, two-factor. It answers the whole
 * account in one step, user and profile included, because `GET /users/@me` is the hot path of
 * every client start (one query on PostgreSQL). Auth answers it (`AuthAccountDetails`), like
 * `Memberships` answered by the guilds domain.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type Effect, type Option } from "effect"
import type { Profile } from "./Profile.ts"
import type { User } from "./User.ts"

export interface Details {
  readonly user: User
  readonly profile: Profile
  /** The phone number as shown to its owner (masked by the accounts domain), or null. */
  readonly maskedPhone: string | null
  readonly email: string | null
  readonly emailVerified: boolean
  readonly mfaEnabled: boolean
  /** The address waiting for its confirmation link, if any. */
  readonly emailPending: string | null
}

export class AccountDetails extends Context.Service<
  AccountDetails,
  {
    /** None when the user is unknown (or the account is gone). */
    readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Details>>
  }
>()("@veche/users/AccountDetails") {}
