/**
 * A link mailed to an address: it proves the reader controls that address, for one purpose, once.
 * Only the SHA-256 digest of its 256-bit secret is kept. `bind` links confirm an address for an
 * account (one day); `recover` links set a new password (one hour) and only while the address is
 * still the account's.
 */
import { Snowflake } from "@veche/platform"
import { Duration, Schema } from "effect"

export const Purpose = Schema.Literals(["bind", "recover"])
export type Purpose = typeof Purpose.Type

export const LIFETIME: Record<Purpose, Duration.Duration> = {
  bind: Duration.days(1),
  recover: Duration.hours(1)
}

export const EmailLink = Schema.Struct({
  id: Snowflake.Snowflake,
  purpose: Purpose,
  /** SHA-256 (hex) of the link's secret; the secret itself is only in the letter. */
  tokenDigest: Schema.String,
  userId: Snowflake.Snowflake,
  /** The address the letter went to, as `normaliseEmail` left it. */
  email: Schema.String,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  /** Set by the one use, or when a newer link or a finished recovery burned it. */
  usedAt: Schema.NullOr(Schema.DateTimeUtc)
})
export type EmailLink = typeof EmailLink.Type
