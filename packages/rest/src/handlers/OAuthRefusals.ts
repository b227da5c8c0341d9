/**
 * The OAuth provider's refusals (@veche/oauth, and the domains the consent step calls) as the API's
 * errors, in one table: the consent routes answer in the API's shape (10002, 50035 naming the
 * field, 50013, the guilds' answers), the token routes in RFC 6749's `{error, error_description}`.
 */
import { OAuthApi } from "@veche/api"
import { FormCode, InvalidFormBody, MissingPermissions, UnknownApplication } from "@veche/errors"
import type { OAuthErrors } from "@veche/oauth"
import * as GuildRefusals from "./GuildRefusals.ts"
import * as RefusalTable from "./RefusalTable.ts"

const table = {
  NoSuchApplication: () => new UnknownApplication(),
  InvalidRedirectUri: () =>
    InvalidFormBody.field(["redirect_uri"], "INVALID_OAUTH_REDIRECT", "Invalid OAuth2 redirect_uri"),
  GuildRequired: () => InvalidFormBody.field(["guild_id"], FormCode.BaseTypeRequired, "This field is required"),
  PrivateBot: () => new MissingPermissions(),
  InvalidClient: (refusal: OAuthErrors.InvalidClient) =>
    new OAuthApi.OAuthClientError({ error: "invalid_client", error_description: refusal.description }),
  InvalidGrant: (refusal: OAuthErrors.InvalidGrant) =>
    new OAuthApi.OAuthRequestError({ error: "invalid_grant", error_description: refusal.description })
} as const

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = GuildRefusals.ApiErrorOf<RefusalTable.ApiErrorOf<E, typeof table>>

const own = RefusalTable.refuseWith(table)

/** The consent step adds a bot through the guilds domain: its refusals answer as on the guild routes. */
export const refuse = <E>(error: E): ApiErrorOf<E> => GuildRefusals.refuse(own(error))
