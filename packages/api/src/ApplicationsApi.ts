/**
 * Developer applications (the mirrored platform's v10 application object) and what a bot reads of
 * its own: the owner's routes (users only: 20001 to bots) and the bot's (`/applications/@me`,
 * `/oauth2/applications/@me`, `/oauth2/@me`: 20002 to users). Pure data.
 */
import {
  BotsCannotUseThisEndpoint,
  InvalidFormBody,
  MaxApplicationsReached,
  MissingAccess,
  NotImplemented,
  OnlyBotsCanUseThisEndpoint,
  ServiceUnavailable,
  TwoFactorRequiredForOperation,
  UnknownApplication
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { NoStore } from "./NoStore.ts"
import { PublicUser } from "./UsersApi.ts"

/** Hosts that name this machine: plain http is safe only to them (RFC 8252's loopback redirects). */
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"]

/** Longer addresses are refused (browsers and the platform stop well before). */
export const MAX_REDIRECT_URI_LENGTH = 2048

/**
 * The spec's rule for redirect addresses: https, or http only for localhost and the loopback
 * addresses; absolute, without a fragment (RFC 6749 §3.1.2) and without credentials in it (they
 * would travel to the client in every redirect).
 */
const isRedirectUri = (value: string): boolean => {
  if (value.length > MAX_REDIRECT_URI_LENGTH || !URL.canParse(value)) return false
  const url = new URL(value)
  if (url.hash !== "" || value.includes("#")) return false
  if (url.username !== "" || url.password !== "") return false
  if (url.protocol === "https:") return url.hostname !== ""
  return url.protocol === "http:" && LOOPBACK_HOSTS.includes(url.hostname)
}

export const RedirectUri = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter(isRedirectUri, {
      expected: "an https address, or http on localhost",
      message: "Not a well formed redirect URI."
    })
  )
)

export const ApplicationName = Fields.lengthBetween(2, 32)

/**
 * The application flags an owner may set: the limited gateway intents (GATEWAY_PRESENCE_LIMITED
 * 1 << 13, GATEWAY_GUILD_MEMBERS_LIMITED 1 << 15, GATEWAY_MESSAGE_CONTENT_LIMITED 1 << 19), as on
 * the platform (the applications domain's `SETTABLE_FLAGS`).
 */
export const SETTABLE_APPLICATION_FLAGS = (1 << 13) | (1 << 15) | (1 << 19)

export const ApplicationFlags = Schema.Int.pipe(
  Schema.check(
    // Bounded before the bit test: JavaScript's `&` reads its operands as 32-bit integers, so
    // 2^32 + 8192 would pass as 8192 and then overflow the database's column (a 500).
    Schema.makeFilter(
      (flags: number) =>
        flags >= 0 && flags <= SETTABLE_APPLICATION_FLAGS && (flags & ~SETTABLE_APPLICATION_FLAGS) === 0,
      {
        expected: "only the limited gateway intent flags",
        message: "Invalid flags."
      }
    )
  )
)

export const CreateApplicationBody = Schema.Struct({ name: ApplicationName })

export const UpdateApplicationBody = Schema.Struct({
  name: Schema.optionalKey(ApplicationName),
  description: Schema.optionalKey(Fields.lengthAtMost(400)),
  /** A data URI (PNG, JPEG, GIF or WebP, as a guild icon); null removes the icon. */
  icon: Schema.optionalKey(Schema.NullOr(Fields.ImageData)),
  redirect_uris: Schema.optionalKey(Fields.arrayAtMost(RedirectUri, 10)),
  bot_public: Schema.optionalKey(Schema.Boolean),
  bot_require_code_grant: Schema.optionalKey(Schema.Boolean),
  flags: Schema.optionalKey(ApplicationFlags)
})

/** The v10 application object, with what this service can fill truthfully. */
export const ApplicationView = Schema.Struct({
  id: Snowflake.Snowflake,
  name: Schema.String,
  icon: Schema.NullOr(Schema.String),
  description: Schema.String,
  /** Deprecated on the platform, always empty. */
  summary: Schema.Literal(""),
  type: Schema.Null,
  bot_public: Schema.Boolean,
  bot_require_code_grant: Schema.Boolean,
  /** No teams here. */
  team: Schema.Null,
  flags: Schema.Int,
  redirect_uris: Schema.Array(Schema.String),
  owner: Schema.optionalKey(PublicUser),
  bot: Schema.optionalKey(PublicUser)
})

export const BotTokenView = Schema.Struct({ token: Schema.String })
export const ClientSecretView = Schema.Struct({ client_secret: Schema.String })

/** What `GET /oauth2/@me` answers a bot: its application, the scopes and when the grant ends. */
export const CurrentAuthorizationView = Schema.Struct({
  application: ApplicationView,
  scopes: Schema.Array(Schema.String),
  expires: Schema.String,
  user: Schema.optionalKey(PublicUser)
})

const params = { application_id: Snowflake.Snowflake }
const ownerErrors = [BotsCannotUseThisEndpoint, UnknownApplication] as const

export class ApplicationsApi extends HttpApiGroup.make("applications")
  .add(
    HttpApiEndpoint.get("currentApplication", "/applications/@me", {
      success: ApplicationView,
      error: [OnlyBotsCanUseThisEndpoint, UnknownApplication]
    }),
    HttpApiEndpoint.get("currentOAuthApplication", "/oauth2/applications/@me", {
      success: ApplicationView,
      error: [OnlyBotsCanUseThisEndpoint, UnknownApplication]
    }),
    HttpApiEndpoint.get("currentAuthorization", "/oauth2/@me", {
      success: CurrentAuthorizationView,
      error: [OnlyBotsCanUseThisEndpoint, UnknownApplication]
    }),
    HttpApiEndpoint.post("createApplication", "/applications", {
      payload: CreateApplicationBody,
      success: ApplicationView.pipe(HttpApiSchema.status(201)),
      error: [BotsCannotUseThisEndpoint, TwoFactorRequiredForOperation, MaxApplicationsReached, InvalidFormBody]
    }),
    HttpApiEndpoint.get("listApplications", "/applications", {
      success: Schema.Array(ApplicationView),
      error: BotsCannotUseThisEndpoint
    }),
    HttpApiEndpoint.get("getApplication", "/applications/:application_id", {
      params,
      success: ApplicationView,
      error: ownerErrors
    }),
    HttpApiEndpoint.patch("updateApplication", "/applications/:application_id", {
      params,
      payload: UpdateApplicationBody,
      success: ApplicationView,
      error: [...ownerErrors, InvalidFormBody, NotImplemented, ServiceUnavailable]
    }),
    HttpApiEndpoint.delete("deleteApplication", "/applications/:application_id", {
      params,
      success: HttpApiSchema.NoContent,
      error: ownerErrors
    }),
    HttpApiEndpoint.post("resetBotToken", "/applications/:application_id/bot/reset", {
      params,
      success: BotTokenView,
      error: ownerErrors
    }).middleware(NoStore),
    HttpApiEndpoint.post("resetClientSecret", "/applications/:application_id/secret/reset", {
      params,
      success: ClientSecretView,
      error: [...ownerErrors, MissingAccess]
    }).middleware(NoStore)
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Developer applications and their bots: the owner's routes (users only) and what a bot reads of its own."
  ) {}
