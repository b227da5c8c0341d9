/**
 * A developer application as the store keeps it. Its bot user has the application's id (as on the
 * mirrored platform, where an application and its bot share one id). Secrets are kept only as
 * SHA-256 digests; the wire shape (`ApplicationView`) is derived, never stored.
 */
import { Snowflake } from "@veche/platform"
import { Schema } from "effect"

export const Application = Schema.Struct({
  id: Snowflake.Snowflake,
  ownerId: Snowflake.Snowflake,
  name: Schema.String,
  description: Schema.String,
  icon: Schema.NullOr(Schema.String),
  botPublic: Schema.Boolean,
  botRequireCodeGrant: Schema.Boolean,
  redirectUris: Schema.Array(Schema.String),
  /** The digest of the bot's current token; null when it has none (never after creation). */
  botTokenDigest: Schema.NullOr(Schema.String),
  /** The digest of the client secret; null until one is reset (shown once). */
  secretDigest: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc
})
export type Application = typeof Application.Type

/** What an owner may change (PATCH); absent fields stay as they are. */
export interface Changes {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly icon?: string | null | undefined
  readonly botPublic?: boolean | undefined
  readonly botRequireCodeGrant?: boolean | undefined
  readonly redirectUris?: ReadonlyArray<string> | undefined
}

/** What an owner asks to change (PATCH): as `Changes`, but `icon` is the uploaded image (a data URI), null to clear. */
export interface Edit extends Omit<Changes, "icon"> {
  readonly icon?: string | null | undefined
}

/** Applications one owner may have (the spec's entity counts; past it 400 30032). */
export const MAX_PER_OWNER = 25
