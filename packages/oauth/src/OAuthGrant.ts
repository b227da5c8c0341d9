/**
 * What the OAuth provider stores: authorization codes (one consent, redeemable once for ten
 * minutes), and grants (the tokens one redemption started, rotated by refresh, ended together).
 * Every secret is kept only as its SHA-256 digest.
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

/** The scopes this provider grants: `identify` (GET /users/@me) and `bot` (adding the bot to a guild). */
export const SCOPES = ["identify", "bot"] as const
export const Scope = Schema.Literals(SCOPES)
export type Scope = typeof Scope.Type

/** Seconds an access token lives: a week, as the mirrored platform's. */
export const ACCESS_TOKEN_SECONDS = 604_800
/** Minutes an authorization code lives. */
export const CODE_MINUTES = 10

export const StoredCode = Schema.Struct({
  digest: Schema.String,
  applicationId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  /** The redirect URI of the consent, which the token request must repeat byte for byte. */
  redirectUri: Schema.NullOr(Schema.String),
  scopes: Schema.Array(Scope),
  /** The PKCE S256 challenge (base64url of the verifier's SHA-256), none when the client sent none. */
  codeChallenge: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc
})
export type StoredCode = typeof StoredCode.Type

/** The tokens one code redemption started: refreshing keeps the grant, reuse or revocation ends it. */
export const Grant = Schema.Struct({
  id: Snowflake.Snowflake,
  applicationId: Snowflake.Snowflake,
  userId: Snowflake.Snowflake,
  scopes: Schema.Array(Scope),
  /** The client proved itself with its secret: refreshing needs the secret too. */
  confidential: Schema.Boolean,
  createdAt: Schema.DateTimeUtc
})
export type Grant = typeof Grant.Type

/** A new token pair as the store keeps it. */
export interface StoredPair {
  readonly access: { readonly digest: string; readonly expiresAt: Schema.Schema.Type<typeof Schema.DateTimeUtc> }
  readonly refresh: { readonly digest: string }
}
