/**
 * A login session: one per login, holding one live access token and one live refresh token at a
 * time. Refresh replaces both; the session's absolute lifetime never moves, so rotation cannot keep
 * a stolen chain alive forever. Revoking the session kills every token it ever issued, and so does
 * a change of the account's password (see `passwordChangedAt`).
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

export const ClientInfo = Schema.Struct({
  userAgent: Schema.NullOr(Schema.String),
  address: Schema.NullOr(Schema.String),
  country: Schema.NullOr(Schema.String)
})
export type ClientInfo = typeof ClientInfo.Type

export const Session = Schema.Struct({
  id: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  client: ClientInfo,
  createdAt: Schema.DateTimeUtc,
  lastUsedAt: Schema.DateTimeUtc,
  /** Absolute end of the session, whatever refreshes happen. */
  expiresAt: Schema.DateTimeUtc,
  revokedAt: Schema.NullOr(Schema.DateTimeUtc),
  /**
   * The account's `passwordChangedAt` when its login checked the password (null: never changed).
   * While it differs from the account's current value the session is refused: a login that checked
   * the old password while a recovery set a new one cannot keep a session started afterwards.
   */
  passwordChangedAt: Schema.NullOr(Schema.DateTimeUtc)
})
export type Session = typeof Session.Type

/** What a valid access token stands for. */
export interface AccessGrant {
  readonly sessionId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
}
