/**
 * What other domains may know of an account, by user id: its phone (for staff listed by phone),
 * whether its address and phone are verified, when it was made (for guilds' standings) and the birth
 * date (messages' age-restricted channels). A service over AccountsRepo, so no other domain reads the
 * accounts store (or a password hash).
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, Effect, Layer, Option } from "effect"
import { AccountsRepo } from "./AccountsRepo.ts"
import type { PhoneNumber } from "./Phone.ts"

export interface Facts {
  /** Canonical `+7XXXXXXXXXX`; null for accounts registered by e-mail. */
  readonly phone: PhoneNumber | null
  /** An address is bound and confirmed. */
  readonly emailVerified: boolean
  /** A phone is bound (binding one confirms it). */
  readonly phoneVerified: boolean
  readonly createdAt: DateTime.Utc
  /** `YYYY-MM-DD` (age-restricted channels refuse users under 18 by it). */
  readonly dateOfBirth: string
}

export class AccountLookup extends Context.Service<
  AccountLookup,
  {
    readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Facts>>
    /** The account holding this phone (canonical form), for staff finding a user by phone. */
    readonly findByPhone: (phone: PhoneNumber) => Effect.Effect<Option.Option<Snowflake.Snowflake>>
  }
>()("@veche/auth/AccountLookup") {
  static readonly layer: Layer.Layer<AccountLookup, never, AccountsRepo> = Layer.effect(
    AccountLookup,
    Effect.map(Effect.service(AccountsRepo), (accounts) =>
      AccountLookup.of({
        findByPhone: (phone) =>
          Effect.map(
            accounts.findByPhone(phone),
            Option.map((account) => account.credentials.userId)
          ),
        read: (userId) =>
          Effect.map(
            accounts.findByUserId(userId),
            Option.map(({ credentials }) => ({
              phone: credentials.phone,
              emailVerified: credentials.email !== null && credentials.emailVerified,
              phoneVerified: credentials.phone !== null,
              createdAt: credentials.createdAt,
              dateOfBirth: credentials.dateOfBirth
            }))
          )
      })
    )
  )
}
