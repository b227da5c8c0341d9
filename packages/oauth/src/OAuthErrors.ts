/**
 * Refusals of the OAuth provider, named for the condition (API answers: rest's OAuthRefusals). The
 * consent routes answer in the API's error shape; the token routes in RFC 6749's
 * `{error, error_description}`.
 */
import { Schema } from "effect"

/** The redirect URI is not one the application registered byte for byte, or is missing (400 50035). */
export class InvalidRedirectUri extends Schema.TaggedError<InvalidRedirectUri>()("InvalidRedirectUri", {}) {}

/** Scope `bot` was approved without the guild to add the bot to (400 50035 on `guild_id`). */
export class GuildRequired extends Schema.TaggedError<GuildRequired>()("GuildRequired", {}) {}

/** A private bot (`bot_public: false`) added by someone other than its owner (403 50013). */
export class PrivateBot extends Schema.TaggedError<PrivateBot>()("PrivateBot", {}) {}

/** The client could not be authenticated: unknown, wrong secret, or proof required (401 invalid_client). */
export class InvalidClient extends Schema.TaggedError<InvalidClient>()("InvalidClient", {
  description: Schema.String
}) {}

/**
 * The code or refresh token is unknown, spent, expired, another client's, or does not match what it
 * was issued for (redirect URI, PKCE verifier); or the account is blocked (400 invalid_grant).
 */
export class InvalidGrant extends Schema.TaggedError<InvalidGrant>()("InvalidGrant", {
  description: Schema.String
}) {}
