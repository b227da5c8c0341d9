/**
 * An account: the user record (owned by @veche/users, read by GET /users/@me) together with what
 * only authentication needs, its credentials. The two are stored apart and created together.
 */
import { Snowflake } from "@veche/platform"
import { User } from "@veche/users"
import { Schema } from "effect"
import * as Phone from "./Phone.ts"

/** A calendar date `YYYY-MM-DD`, no time and no zone: a birthday is the same day everywhere. */
export const CalendarDate = Schema.String.pipe(
  Schema.check(Schema.makeFilter((s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s), { message: "Expected YYYY-MM-DD" }))
)

export const Credentials = Schema.Struct({
  userId: Snowflake.Snowflake,
  /** Canonical `+7XXXXXXXXXX`; null for accounts registered by e-mail. Unique. */
  phone: Schema.NullOr(Phone.Normalised),
  /**
   * As `normaliseEmail` left it. Unique and looked up without regard to letter case (see there);
   * null when the account has none bound.
   */
  email: Schema.NullOr(Schema.String),
  /** E-mail registrations confirm the address as part of registering, so they start true. */
  emailVerified: Schema.Boolean,
  /** An argon2id PHC string (`$argon2id$v=19$…`); never the password. */
  passwordHash: Schema.String,
  dateOfBirth: CalendarDate,
  createdAt: Schema.DateTimeUtc,
  /**
   * When the password was last changed (recovery); null if never since registration. Sessions carry
   * the value their login saw, and one that differs from this is refused (see Sessions).
   */
  passwordChangedAt: Schema.NullOr(Schema.DateTimeUtc)
})
export type Credentials = typeof Credentials.Type

export const Account = Schema.Struct({
  user: User.User,
  credentials: Credentials
})
export type Account = typeof Account.Type

/**
 * Trims and lower-cases the domain (domains are case-insensitive by RFC 5321). The local part keeps
 * the case the person typed, because that is what letters are sent to; uniqueness and lookups
 * still compare the whole address lower-cased (`lower(email)` in PostgreSQL), as the mirrored
 * platform treats e-mail case-insensitively, so `Ann@x.ru` and `ann@x.ru` are one account.
 */
export const normaliseEmail = (input: string): string => {
  const trimmed = input.trim()
  const at = trimmed.lastIndexOf("@")
  return at < 0 ? trimmed : trimmed.slice(0, at) + trimmed.slice(at).toLowerCase()
}

/** The key e-mail uniqueness and lookups use; the memory store's equivalent of `lower(email)`. */
export const emailKey = (email: string): string => email.toLowerCase()

/**
 * The key an e-mail's failure budgets and letter limits count under. It must fold together every
 * spelling the store's lookup folds together, or each spelling is a fresh budget for one account:
 * PostgreSQL's `lower()` maps "İ" (U+0130) to "i", the Kelvin sign to "k" and a final "Σ" to "σ",
 * where JavaScript's `toLowerCase` gives "i̇", "k" and "ς". So compatibility forms are decomposed,
 * marks dropped and the context-dependent letters (final sigma, dotless i) merged: coarser than
 * `lower()`, which only means a few distinct addresses share a budget (checked against every code
 * point PostgreSQL lowers, in adapters/postgres/test/LoginSpellings.test.ts).
 */
export const budgetKey = (email: string): string =>
  email.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replaceAll("ς", "σ").replaceAll("ı", "i")
