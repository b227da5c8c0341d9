/**
 * The guild groups: guilds themselves and the caller's guild list ("guilds"), members and bans
 * ("members"), roles ("roles"). Routes, bodies and answers follow the mirrored platform's API v10
 * (the wire objects are `GuildSchemas`), so bot libraries work unchanged. Path parameters are named
 * as v10 names them: the rate limiter partitions buckets by `guild_id`. Pure data; also home of the
 * request-side field schemas the channel and invite groups share.
 */
import {
  BotsCannotUseThisEndpoint,
  InvalidFormBody,
  InvalidGuild,
  MaxGuildsReached,
  MaxRolesReached,
  MissingAccess,
  MissingPermissions,
  NotImplemented,
  ServiceUnavailable,
  UnknownBan,
  UnknownGuild,
  UnknownMember,
  UnknownRole,
  UnknownUser
} from "@veche/errors"
import { Guild, GuildSchemas, Permissions } from "@veche/guilds"
import { Snowflake } from "@veche/platform"
import { Effect, Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"

// ---------------------------------------------------------------------------------------------
// Field schemas shared by the guild, channel and invite groups

/** A string of `min`–`max` characters (BASE_TYPE_BAD_LENGTH). */
export const lengthBetween = Fields.lengthBetween

/** A string of at most `max` characters (BASE_TYPE_MAX_LENGTH). */
export const lengthAtMost = Fields.lengthAtMost

/** An integer in [min, max]; each bound reports its own code (NUMBER_TYPE_MIN / NUMBER_TYPE_MAX). */
export const intBetween = Fields.intBetween

/** An integer query parameter in [min, max]; anything but digits is NUMBER_TYPE_COERCE. */
export const queryIntBetween = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.check(Schema.isPattern(/^[+-]?\d{1,16}$/, { message: "Value is not int.", formCode: "NUMBER_TYPE_COERCE" })),
    Schema.decodeTo(
      intBetween(min, max),
      SchemaTransformation.transform({ decode: (s: string) => Number(s), encode: (n: number) => String(n) })
    )
  )

/** A `?limit=` in [min, max], `fallback` when absent. */
export const queryLimit = (min: number, max: number, fallback: number) =>
  queryIntBetween(min, max).pipe(Schema.withDecodingDefaultKey(Effect.succeed(String(fallback))))

/** A boolean query flag: `true`/`false` (any case) or `1`/`0`, as the platform reads them. */
export const QueryBoolean = Schema.String.pipe(
  Schema.check(
    Schema.isPattern(/^(true|false|1|0)$/i, { message: "Must be either true or false.", formCode: "BASE_TYPE_INVALID" })
  ),
  Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform({
      decode: (s: string) => /^(true|1)$/i.test(s),
      encode: (b: boolean) => String(b)
    })
  )
)

/** `?with_counts=true`: add approximate member and presence counts. */
export const WithCountsQuery = { with_counts: Schema.optionalKey(QueryBoolean) }

/**
 * A permission set as libraries send it: the decimal string of an unsigned integer (what v10 sends
 * back), or a JSON number. Bits the platform does not define are dropped, as it drops them.
 */
export const PermissionsInput = Schema.Union([
  Schema.String.pipe(
    Schema.check(
      Schema.makeFilter((s: string) => Permissions.fromWire(s) !== undefined, {
        message: "Value is not int.",
        formCode: "NUMBER_TYPE_COERCE"
      })
    ),
    Schema.decodeTo(
      Schema.BigInt,
      SchemaTransformation.transform({
        decode: (s: string) => Permissions.fromWire(s) ?? Permissions.NONE,
        encode: (permissions: bigint) => Permissions.toWire(permissions)
      })
    )
  ),
  Fields.intBetween(0, Number.MAX_SAFE_INTEGER).pipe(
    Schema.decodeTo(
      Schema.BigInt,
      SchemaTransformation.transform({
        decode: (n: number) => BigInt(n) & Permissions.ALL,
        encode: (permissions: bigint) => Number(permissions)
      })
    )
  )
]).annotate({ message: "Value is not int.", formCode: "NUMBER_TYPE_COERCE" })

/** A data URI of an image (decoded and size-checked by the media domain), or null to remove it. */
export const ImageData = Schema.String.pipe(Schema.check(Fields.maxLength(8_000_000)))

/** 0–0xFFFFFF. */
export const Color = intBetween(0, 0xff_ff_ff)

/**
 * A body that may also be left out: an empty (or `null`) request body decodes as `{}` would, so a
 * bare `PUT` works as it does on the platform. Use as `payload: orEmpty(Body)`.
 */
export const orEmpty = <S extends Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }>(
  body: S
) =>
  [
    body,
    Schema.Null.pipe(
      Schema.decodeTo(
        body,
        SchemaTransformation.transform({
          decode: () => ({}) as S["Encoded"],
          encode: () => null
        })
      )
    )
  ] as const

/**
 * `X-Audit-Log-Reason`: the reason for a moderation action, percent-encoded by bot libraries
 * (discord.js encodes it with encodeURIComponent), at most 512 characters once decoded.
 */
export const AuditLogReason = Schema.String.pipe(
  Schema.decodeTo(
    lengthAtMost(512).pipe(Schema.check(Fields.withoutNul)),
    SchemaTransformation.transform({
      decode: (raw: string) => {
        try {
          return decodeURIComponent(raw)
        } catch {
          // Not valid percent-encoding: a client that sent the text as is.
          return raw
        }
      },
      encode: (reason: string) => encodeURIComponent(reason)
    })
  )
)

export const AuditLogHeaders = Schema.Struct({ "x-audit-log-reason": Schema.optionalKey(AuditLogReason) })

// ---------------------------------------------------------------------------------------------
// Guilds

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

export const GuildName = lengthBetween(2, 100)

/** Entries `features` may carry in one PATCH. */
export const MAX_FEATURES = 100

/** POST /guilds. Templates (`roles`, `channels`) are not supported and are ignored. */
export const GuildCreateBody = Schema.Struct({
  name: GuildName,
  icon: Schema.optionalKey(Schema.NullOr(ImageData)),
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
  icon: Schema.optionalKey(Schema.NullOr(ImageData)),
  banner: Schema.optionalKey(Schema.NullOr(ImageData)),
  description: Schema.optionalKey(Schema.NullOr(lengthAtMost(120))),
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
  features: Schema.optionalKey(Fields.arrayAtMost(lengthAtMost(64), MAX_FEATURES)),
  owner_id: Schema.optionalKey(Snowflake.Snowflake)
})
export type GuildPatchBody = typeof GuildPatchBody.Type

export const GuildParams = { guild_id: Snowflake.Snowflake }

/** GET /users/@me/guilds: a page ordered by id. */
export const MyGuildsQuery = {
  before: Schema.optionalKey(Snowflake.Snowflake),
  after: Schema.optionalKey(Snowflake.Snowflake),
  limit: queryLimit(1, 200, 200),
  ...WithCountsQuery
}

const usersOnly = [BotsCannotUseThisEndpoint] as const
/** The guild does not exist, or the caller is not in it. */
const inGuild = [UnknownGuild, MissingAccess] as const
/** … and the caller needs a permission there. */
const managing = [...inGuild, MissingPermissions] as const
/** Image uploads: invalid data (50035), no storage configured (501), storage down (503). */
const images = [InvalidFormBody, NotImplemented, ServiceUnavailable] as const

const me = "/users/@me/guilds"

export class GuildsApi extends HttpApiGroup.make("guilds")
  .add(
    HttpApiEndpoint.post("createGuild", "/guilds", {
      payload: GuildCreateBody,
      success: GuildSchemas.Guild.pipe(HttpApiSchema.status(201)),
      error: [...usersOnly, MaxGuildsReached, ...images]
    }).middleware(Authorization),
    HttpApiEndpoint.get("getGuild", "/guilds/:guild_id", {
      params: GuildParams,
      query: WithCountsQuery,
      success: GuildSchemas.Guild,
      error: inGuild
    }).middleware(Authorization),
    HttpApiEndpoint.patch("updateGuild", "/guilds/:guild_id", {
      params: GuildParams,
      payload: GuildPatchBody,
      success: GuildSchemas.Guild,
      // UnknownMember: owner_id names someone who is not a member
      error: [...managing, UnknownMember, ...images]
    }).middleware(Authorization),
    // Owner only.
    HttpApiEndpoint.delete("deleteGuild", "/guilds/:guild_id", {
      params: GuildParams,
      success: HttpApiSchema.NoContent,
      error: managing
    }).middleware(Authorization),
    HttpApiEndpoint.get("myGuilds", me, {
      query: MyGuildsQuery,
      success: Schema.Array(GuildSchemas.PartialGuild),
      error: InvalidFormBody
    }).middleware(Authorization),
    // The owner cannot leave (50055): transfer or delete the guild first.
    HttpApiEndpoint.delete("leaveGuild", `${me}/:guild_id`, {
      params: GuildParams,
      success: HttpApiSchema.NoContent,
      error: [UnknownGuild, InvalidGuild]
    }).middleware(Authorization),
    HttpApiEndpoint.get("myMember", `${me}/:guild_id/member`, {
      params: GuildParams,
      success: GuildSchemas.Member,
      error: [...usersOnly, UnknownGuild]
    }).middleware(Authorization)
  )
  .annotate(
    OpenApi.Description,
    "Guilds (servers): create, read, edit, delete; the caller's guilds, leaving one, and the caller's membership."
  ) {}

// ---------------------------------------------------------------------------------------------
// Members and bans

/** A member's user id, or `@me` for the caller. */
export const MemberTarget = Schema.Union([Snowflake.Snowflake, Schema.Literal("@me")]).annotate({
  message: "Value is not snowflake.",
  formCode: "NUMBER_TYPE_COERCE"
})

export const MemberParams = { guild_id: Snowflake.Snowflake, user_id: MemberTarget }
export const UserParams = { guild_id: Snowflake.Snowflake, user_id: Snowflake.Snowflake }

/** GET /guilds/{guild_id}/members: a page ordered by user id. */
export const MembersQuery = {
  limit: queryLimit(1, 1000, 1),
  after: Schema.optionalKey(Snowflake.Snowflake)
}

/**
 * PATCH /guilds/{guild_id}/members/{user_id}: the nickname (empty or null removes it; one's own
 * needs Change Nickname, another's Manage Nicknames) and the full list of roles (Manage Roles).
 */
export const MemberPatchBody = Schema.Struct({
  nick: Schema.optionalKey(Schema.NullOr(lengthAtMost(32))),
  roles: Schema.optionalKey(Schema.NullOr(Fields.arrayAtMost(Snowflake.Snowflake, Guild.MAX_ROLES)))
})
export type MemberPatchBody = typeof MemberPatchBody.Type

/** GET /guilds/{guild_id}/bans: a page ordered by user id. */
export const BansQuery = {
  limit: queryLimit(1, 1000, 1000),
  before: Schema.optionalKey(Snowflake.Snowflake),
  after: Schema.optionalKey(Snowflake.Snowflake)
}

/**
 * PUT /guilds/{guild_id}/bans/{user_id}: how much of the user's recent messages to delete
 * (`delete_message_days` is the deprecated spelling; seconds win when both are sent).
 * The reason comes in `X-Audit-Log-Reason`.
 */
export const BanBody = Schema.Struct({
  delete_message_seconds: Schema.optionalKey(intBetween(0, 604_800)),
  delete_message_days: Schema.optionalKey(intBetween(0, 7))
})
export type BanBody = typeof BanBody.Type

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("listMembers", "/guilds/:guild_id/members", {
      params: GuildParams,
      query: MembersQuery,
      success: Schema.Array(GuildSchemas.Member),
      error: [...inGuild, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.get("getMember", "/guilds/:guild_id/members/:user_id", {
      params: MemberParams,
      success: GuildSchemas.Member,
      error: [...inGuild, UnknownMember, UnknownUser]
    }).middleware(Authorization),
    HttpApiEndpoint.patch("updateMember", "/guilds/:guild_id/members/:user_id", {
      params: MemberParams,
      payload: MemberPatchBody,
      success: GuildSchemas.Member,
      error: [...managing, UnknownMember, UnknownUser, UnknownRole, InvalidFormBody]
    }).middleware(Authorization),
    // Kick.
    HttpApiEndpoint.delete("removeMember", "/guilds/:guild_id/members/:user_id", {
      params: UserParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownMember, UnknownUser]
    }).middleware(Authorization),
    HttpApiEndpoint.get("listBans", "/guilds/:guild_id/bans", {
      params: GuildParams,
      query: BansQuery,
      success: Schema.Array(GuildSchemas.Ban),
      error: [...managing, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.get("getBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      success: GuildSchemas.Ban,
      error: [...managing, UnknownBan]
    }).middleware(Authorization),
    HttpApiEndpoint.put("createBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      headers: AuditLogHeaders,
      payload: orEmpty(BanBody),
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownUser, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.delete("removeBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownBan]
    }).middleware(Authorization)
  )
  .annotate(
    OpenApi.Description,
    "Guild members (list, read, nickname and roles, kick; `@me` for the caller) and bans (the reason in X-Audit-Log-Reason)."
  ) {}

// ---------------------------------------------------------------------------------------------
// Roles

export const RoleParams = { guild_id: Snowflake.Snowflake, role_id: Snowflake.Snowflake }

/** The name a role gets when POST /guilds/{guild_id}/roles sends none (or null). */
export const DEFAULT_ROLE_NAME = "new role"

/** `colors` (newer libraries send it instead of `color`): only the primary colour is kept. */
export const RoleColorsInput = Schema.Struct({
  primary_color: Color,
  secondary_color: Schema.optionalKey(Schema.NullOr(Color)),
  tertiary_color: Schema.optionalKey(Schema.NullOr(Color))
})

/**
 * POST /guilds/{guild_id}/roles and PATCH /guilds/{guild_id}/roles/{role_id}: all optional and
 * nullable as in v10. On creation null or absent means the default: the name `DEFAULT_ROLE_NAME`,
 * no permissions beyond @everyone's, colour 0, not hoisted, not mentionable. `colors.primary_color`
 * stands for `color` when `color` is absent.
 */
export const RoleBody = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(lengthAtMost(100))),
  permissions: Schema.optionalKey(Schema.NullOr(PermissionsInput)),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  colors: Schema.optionalKey(RoleColorsInput),
  hoist: Schema.optionalKey(Schema.NullOr(Schema.Boolean)),
  mentionable: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})
export type RoleBody = typeof RoleBody.Type

/** PATCH /guilds/{guild_id}/roles: new positions, at most one entry per role a guild may have. */
export const RolePositionsBody = Fields.arrayAtMost(
  Schema.Struct({
    id: Snowflake.Snowflake,
    position: Schema.optionalKey(Schema.NullOr(Fields.Int32))
  }),
  Guild.MAX_ROLES
)
export type RolePositionsBody = typeof RolePositionsBody.Type

export class RolesApi extends HttpApiGroup.make("roles")
  .add(
    HttpApiEndpoint.get("listRoles", "/guilds/:guild_id/roles", {
      params: GuildParams,
      success: Schema.Array(GuildSchemas.Role),
      error: inGuild
    }).middleware(Authorization),
    HttpApiEndpoint.get("getRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      success: GuildSchemas.Role,
      error: [...inGuild, UnknownRole]
    }).middleware(Authorization),
    HttpApiEndpoint.post("createRole", "/guilds/:guild_id/roles", {
      params: GuildParams,
      payload: orEmpty(RoleBody),
      success: GuildSchemas.Role,
      error: [...managing, MaxRolesReached, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.patch("reorderRoles", "/guilds/:guild_id/roles", {
      params: GuildParams,
      payload: RolePositionsBody,
      success: Schema.Array(GuildSchemas.Role),
      error: [...managing, UnknownRole, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.patch("updateRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      payload: RoleBody,
      success: GuildSchemas.Role,
      error: [...managing, UnknownRole, InvalidFormBody]
    }).middleware(Authorization),
    HttpApiEndpoint.delete("deleteRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownRole]
    }).middleware(Authorization)
  )
  .annotate(OpenApi.Description, "Guild roles: list, read, create, edit, reorder, delete.") {}
