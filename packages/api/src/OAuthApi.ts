/**
 * The OAuth 2.0 provider's routes. The consent routes (`GET|POST /oauth2/authorize`) take the user's
 * session token, like every route of the API, and answer in its error shape; the consent page is
 * built on them (see the consent contract in the README). The token routes (`POST /oauth2/token`,
 * `POST /oauth2/token/revoke`) take an `application/x-www-form-urlencoded` body and no user token,
 * and answer RFC 6749's `{error, error_description}` with `Cache-Control: no-store`. Pure data.
 */
import {
  Banned,
  BotsCannotUseThisEndpoint,
  InvalidFormBody,
  MaxRolesReached,
  MissingAccess,
  MissingPermissions,
  UnknownApplication,
  UnknownGuild,
  UnknownUser
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { NoStore } from "./NoStore.ts"
import { PublicUser } from "./UsersApi.ts"

/** The scopes granted here: `identify` (GET /users/@me with the token) and `bot` (add the bot to a guild). */
export const SCOPES = ["identify", "bot"] as const

const isScopeList = (value: string): boolean => {
  const scopes = value.split(" ").filter((scope) => scope !== "")
  return scopes.length > 0 && scopes.every((scope) => (SCOPES as ReadonlyArray<string>).includes(scope))
}

/** `scope`: space-separated, each one this provider grants; decoded to the list without repeats. */
export const ScopeList = Schema.String.pipe(
  Schema.check(Fields.maxLength(200)),
  Schema.check(Schema.makeFilter(isScopeList, { message: "Invalid scope.", formCode: "INVALID_SCOPE" })),
  Schema.decodeTo(
    Schema.Array(Schema.Literals(SCOPES)),
    SchemaTransformation.transform({
      decode: (value: string): ReadonlyArray<(typeof SCOPES)[number]> =>
        [...new Set(value.split(" ").filter((scope) => scope !== ""))] as Array<(typeof SCOPES)[number]>,
      encode: (scopes: ReadonlyArray<string>) => scopes.join(" ")
    })
  )
)

/** The authorization request, as the consent page receives it and passes it on. */
export const AuthorizeQuery = {
  client_id: Snowflake.Snowflake,
  /**
   * Required for a code (scope `identify`); a bot invitation (scope `bot` alone) may leave it out,
   * as the links bot libraries generate do (`?client_id=…&permissions=…&scope=bot`).
   */
  response_type: Schema.optionalKey(Schema.Literal("code")),
  scope: ScopeList,
  redirect_uri: Schema.optionalKey(Fields.lengthAtMost(2048)),
  state: Schema.optionalKey(Fields.lengthAtMost(2048)),
  /** base64url of the verifier's SHA-256: 43 characters. */
  code_challenge: Schema.optionalKey(
    Schema.String.pipe(
      Schema.check(Fields.maxLength(128)),
      Schema.check(Schema.isPattern(/^[A-Za-z0-9_-]{43}$/, { message: "Invalid code_challenge." }))
    )
  ),
  /** Only S256: `plain` would let whoever sees the authorization request redeem the code. */
  code_challenge_method: Schema.optionalKey(Schema.Literal("S256")),
  guild_id: Schema.optionalKey(Snowflake.Snowflake),
  permissions: Schema.optionalKey(Fields.PermissionsString),
  /** Accepted and ignored (the page always asks). */
  prompt: Schema.optionalKey(Fields.lengthAtMost(32))
}

export const AuthorizeBody = Schema.Struct({
  authorize: Schema.Boolean,
  guild_id: Schema.optionalKey(Snowflake.Snowflake),
  permissions: Schema.optionalKey(Fields.PermissionsInput)
})

export const ConsentApplication = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  description: Schema.String,
  bot_public: Schema.Boolean,
  bot_require_code_grant: Schema.Boolean
})

export const ConsentGuild = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  /** What the user may do there (decimal string): the bot gets at most these. */
  permissions: Schema.String
})

/** What the consent page shows. */
export const AuthorizeView = Schema.Struct({
  application: ConsentApplication,
  user: PublicUser,
  /** The user has granted this application before and the grant is live. */
  authorized: Schema.Boolean,
  scopes: Schema.Array(Schema.String),
  redirect_uri: Schema.NullOr(Schema.String),
  bot: Schema.optionalKey(PublicUser),
  guilds: Schema.optionalKey(Schema.Array(ConsentGuild))
})

export const AuthorizeAnswer = Schema.Struct({ location: Schema.String })

/** RFC 6749 §5.2: 400 with `error` (invalid_request, invalid_grant, unsupported_grant_type, …). */
export class OAuthRequestError extends Schema.Error<OAuthRequestError>("OAuthRequestError")(
  { _tag: Schema.tagDefaultOmit("OAuthRequestError"), error: Schema.String, error_description: Schema.String },
  { httpApiStatus: 400 }
) {}

/** RFC 6749 §5.2: 401 invalid_client (with `WWW-Authenticate` when HTTP Basic was used). */
export class OAuthClientError extends Schema.Error<OAuthClientError>("OAuthClientError")(
  {
    _tag: Schema.tagDefaultOmit("OAuthClientError"),
    error: Schema.Literal("invalid_client"),
    error_description: Schema.String
  },
  { httpApiStatus: 401 }
) {}

const form = <const F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).pipe(HttpApiSchema.asFormUrlEncoded())
const optional = Schema.optionalKey(Schema.String)

/** The token request (RFC 6749 §4.1.3, §6; client authentication §2.3.1 in the body or by Basic). */
export const TokenForm = form({
  grant_type: Schema.String,
  client_id: optional,
  client_secret: optional,
  code: optional,
  code_verifier: optional,
  redirect_uri: optional,
  refresh_token: optional,
  scope: optional
})

export const RevokeForm = form({
  token: Schema.String,
  token_type_hint: optional,
  client_id: optional,
  client_secret: optional
})

/** The token answer (RFC 6749 §5.1). */
export const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Int,
  refresh_token: Schema.String,
  scope: Schema.String
})

const consentErrors = [
  BotsCannotUseThisEndpoint,
  UnknownApplication,
  InvalidFormBody,
  UnknownGuild,
  MissingAccess,
  MissingPermissions,
  Banned,
  MaxRolesReached,
  UnknownUser
] as const

export class OAuthApi extends HttpApiGroup.make("oauth")
  .add(
    HttpApiEndpoint.get("describeAuthorization", "/oauth2/authorize", {
      query: AuthorizeQuery,
      success: AuthorizeView,
      error: consentErrors
    }),
    // its answer's location carries the authorization code
    HttpApiEndpoint.post("decideAuthorization", "/oauth2/authorize", {
      query: AuthorizeQuery,
      payload: AuthorizeBody,
      success: AuthorizeAnswer,
      error: consentErrors
    }).middleware(NoStore)
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "The OAuth 2.0 consent step: what the consent page shows the logged-in user, and their answer."
  ) {}

export class OAuthTokenApi extends HttpApiGroup.make("oauthToken")
  .add(
    HttpApiEndpoint.post("token", "/oauth2/token", {
      payload: TokenForm,
      success: TokenAnswer,
      error: [OAuthRequestError, OAuthClientError]
    }),
    HttpApiEndpoint.post("revokeToken", "/oauth2/token/revoke", {
      payload: RevokeForm,
      success: HttpApiSchema.Empty(200),
      error: [OAuthRequestError, OAuthClientError]
    })
  )
  .annotate(
    OpenApi.Description,
    "The OAuth 2.0 token endpoint (authorization_code with PKCE or a client secret, refresh_token) and revocation (RFC 7009)."
  ) {}
