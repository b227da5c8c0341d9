/**
 * What joining a guild needs to know about an account: whether it is verified (the guild's
 * verification level), how old it is, and whether staff put it under a shadow restriction (no
 * invitations, 20025). A port, so the guilds domain reads neither account storage nor sanctions
 * itself; `@veche/moderation`'s GuildStandings answers it from the accounts and moderation domains.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Duration, type Effect, type Option } from "effect"
import type { Guild } from "./Guild.ts"

export interface Standing {
  /** A confirmed e-mail address. */
  readonly emailVerified: boolean
  /** A phone number checked by code (registration or change). */
  readonly phoneVerified: boolean
  readonly createdAt: DateTime.Utc
  /** Under an active shadow restriction. */
  readonly restricted: boolean
}

export class AccountStandings extends Context.Service<
  AccountStandings,
  { readonly read: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Standing>> }
>()("@veche/guilds/AccountStandings") {}

/** How long an account must exist before a "medium" guild lets it in. */
export const MEDIUM_ACCOUNT_AGE = Duration.minutes(5)

/**
 * Whether the guild's verification level lets the account in, as the mirrored platform defines the
 * levels: 1 a verified e-mail (a verified phone counts here: most accounts register by phone),
 * 2 also registered 5 minutes ago, 3 the same at the door (its extra 10 minutes of membership
 * governs speaking, not joining), 4 a verified phone.
 */
export const meetsLevel = (level: Guild["verificationLevel"], standing: Standing, now: DateTime.Utc): boolean => {
  if (level === 0) return true
  if (level === 4) return standing.phoneVerified
  if (!standing.emailVerified && !standing.phoneVerified) return false
  if (level === 1) return true
  return DateTime.isGreaterThanOrEqualTo(now, DateTime.addDuration(standing.createdAt, MEDIUM_ACCOUNT_AGE))
}
