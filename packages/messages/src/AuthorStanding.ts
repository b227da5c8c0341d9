/**
 * The port through which the messages domain reads what the accounts domain knows of a person who
 * writes: the birth date (age-restricted channels) and what verification levels look at. The kit
 * answers it over auth's AccountLookup. Bots have no account: none.
 */
import type { Snowflake } from "@veche/platform"
import { Context, type DateTime, type Effect, type Option } from "effect"

export interface Standing {
  /** `YYYY-MM-DD`. */
  readonly dateOfBirth: string
  readonly emailVerified: boolean
  readonly phoneVerified: boolean
  readonly createdAt: DateTime.Utc
}

export class AuthorStanding extends Context.Service<
  AuthorStanding,
  { readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Standing>> }
>()("@veche/messages/AuthorStanding") {}
