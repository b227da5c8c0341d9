/**
 * The "guilds" group: guilds themselves, the caller's guild list, leaving one and the caller's
 * membership. Routes, bodies and answers follow the mirrored platform's API v10 (the wire objects
 * are `GuildSchemas`), so bot libraries work unchanged. Path parameters are named as v10 names them:
 * the rate limiter partitions buckets by `guild_id`. Pure data. The members and roles groups are
 * `MembersApi` and `RolesApi`; the field rules they share are `Fields`.
 */
import {
  BotsCannotUseThisEndpoint,
  InvalidFormBody,
  InvalidGuild,
  MaxGuildsReached,
  NotImplemented,
  ServiceUnavailable,
  UnknownGuild,
  UnknownMember
} from "@veche/errors"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams, inGuild, managing } from "./GuildRoutes.ts"

/** The platform's locales (`preferred_locale`). */
export const Locale = Schema.Literals([
  "id",
  "da",
  "de",
  "en-GB",
  "en-US",
  "es-ES",
  "es-419",
  "fr",
  "hr",
  "it",
  "lt",
  "hu",
  "nl",
  "no",
  "pl",
  "pt-BR",
  "ro",
  "fi",
  "sv-SE",
  "vi",
  "tr",
  "cs",
  "el",
  "bg",
  "ru",
  "uk",
  "hi",
  "th",
  "zh-CN",
  "ja",
  "zh-TW",
  "ko"
])

export const GuildName = Fields.lengthBetween(2, 100)

/** Entries `features` may carry in one PATCH. */
export const MAX_FEATURES = 100

/** POST /guilds. Templates (`roles`, `channels`) are not supported and are ignored. */
export const GuildCreateBody = Schema.Struct({
  name: GuildName,
  icon: Schema.optionalKey(Schema.NullOr(Fields.ImageData)),
  verification_level: Schema.optionalKey(GuildSchemas.VerificationLevel),
  default_message_notifications: Schema.optionalKey(GuildSchemas.DefaultMessageNotifications),
  explicit_content_filter: Schema.optionalKey(GuildSchemas.ExplicitContentFilter),
  afk_timeout: Schema.optionalKey(GuildSchemas.AfkTimeout)
})
export type GuildCreateBody = typeof GuildCreateBody.Type

/**
 * PATCH /guilds/{guild_id}. Every field is optional; null clears (or, for the levels, resets) where
 * v10 allows it. `owner_id` transfers the guild (owner only).
 */
export const GuildPatchBody = Schema.Struct({
  name: Schema.optionalKey(GuildName),
  icon: Schema.optionalKey(Schema.NullOr(Fields.ImageData)),
  banner: Schema.optionalKey(Schema.NullOr(Fields.ImageData)),
  description: Schema.optionalKey(Schema.NullOr(Fields.lengthAtMost(120))),
  verification_level: Schema.optionalKey(Schema.NullOr(GuildSchemas.VerificationLevel)),
  default_message_notifications: Schema.optionalKey(Schema.NullOr(GuildSchemas.DefaultMessageNotifications)),
  explicit_content_filter: Schema.optionalKey(Schema.NullOr(GuildSchemas.ExplicitContentFilter)),
  afk_channel_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
  afk_timeout: Schema.optionalKey(GuildSchemas.AfkTimeout),
  system_channel_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
  rules_channel_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
  public_updates_channel_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
  /** null resets to en-US. */
  preferred_locale: Schema.optionalKey(Schema.NullOr(Locale)),
  /** Only the features a guild may switch are kept; the platform defines far fewer than 100. */
  features: Schema.optionalKey(Fields.arrayAtMost(Fields.lengthAtMost(64), MAX_FEATURES)),
  owner_id: Schema.optionalKey(Snowflake.Snowflake)
})
export type GuildPatchBody = typeof GuildPatchBody.Type

/** GET /users/@me/guilds: a page ordered by id. */
export const MyGuildsQuery = {
  before: Schema.optionalKey(Snowflake.Snowflake),
  after: Schema.optionalKey(Snowflake.Snowflake),
  limit: Fields.queryLimit(1, 200, 200),
  ...Fields.WithCountsQuery
}

const usersOnly = [BotsCannotUseThisEndpoint] as const
/** Image uploads: invalid data (50035), no storage configured (501), storage down (503). */
const images = [InvalidFormBody, NotImplemented, ServiceUnavailable] as const

const me = "/users/@me/guilds"

export class GuildsApi extends HttpApiGroup.make("guilds")
  .add(
    HttpApiEndpoint.post("createGuild", "/guilds", {
      payload: GuildCreateBody,
      success: GuildSchemas.Guild.pipe(HttpApiSchema.status(201)),
      error: [...usersOnly, MaxGuildsReached, ...images]
    }),
    HttpApiEndpoint.get("getGuild", "/guilds/:guild_id", {
      params: GuildParams,
      query: Fields.WithCountsQuery,
      success: GuildSchemas.Guild,
      error: inGuild
    }),
    HttpApiEndpoint.patch("updateGuild", "/guilds/:guild_id", {
      params: GuildParams,
      payload: GuildPatchBody,
      success: GuildSchemas.Guild,
      // UnknownMember: owner_id names someone who is not a member
      error: [...managing, UnknownMember, ...images]
    }),
    // Owner only.
    HttpApiEndpoint.delete("deleteGuild", "/guilds/:guild_id", {
      params: GuildParams,
      success: HttpApiSchema.NoContent,
      error: managing
    }),
    HttpApiEndpoint.get("myGuilds", me, {
      query: MyGuildsQuery,
      success: Schema.Array(GuildSchemas.PartialGuild),
      error: InvalidFormBody
    }),
    // The owner cannot leave (50055): transfer or delete the guild first.
    HttpApiEndpoint.delete("leaveGuild", `${me}/:guild_id`, {
      params: GuildParams,
      success: HttpApiSchema.NoContent,
      error: [UnknownGuild, InvalidGuild]
    }),
    HttpApiEndpoint.get("myMember", `${me}/:guild_id/member`, {
      params: GuildParams,
      success: GuildSchemas.Member,
      error: [...usersOnly, UnknownGuild]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Guilds (servers): create, read, edit, delete; the caller's guilds, leaving one, and the caller's membership."
  ) {}
