/**
 * The "members" group: a guild's members (list, read, nickname and roles, kick; `@me` for the
 * caller) and its bans. Routes, bodies and answers follow the mirrored platform's API v10. Pure data.
 */
import { InvalidFormBody, UnknownBan, UnknownMember, UnknownRole, UnknownUser } from "@veche/errors"
import * as Guild from "@veche/guilds/Guild"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams, inGuild, managing } from "./GuildRoutes.ts"

/** A member's user id, or `@me` for the caller. */
export const MemberTarget = Schema.Union([Snowflake.Snowflake, Schema.Literal("@me")]).annotate({
  message: "Value is not snowflake.",
  formCode: "NUMBER_TYPE_COERCE"
})

export const MemberParams = { guild_id: Snowflake.Snowflake, user_id: MemberTarget }
export const UserParams = { guild_id: Snowflake.Snowflake, user_id: Snowflake.Snowflake }

/** GET /guilds/{guild_id}/members: a page ordered by user id. */
export const MembersQuery = {
  limit: Fields.queryLimit(1, 1000, 1),
  after: Schema.optionalKey(Snowflake.Snowflake)
}

/**
 * PATCH /guilds/{guild_id}/members/{user_id}: the nickname (empty or null removes it; one's own
 * needs Change Nickname, another's Manage Nicknames) and the full list of roles (Manage Roles).
 */
export const MemberPatchBody = Schema.Struct({
  nick: Schema.optionalKey(Schema.NullOr(Fields.lengthAtMost(32))),
  roles: Schema.optionalKey(Schema.NullOr(Fields.arrayAtMost(Snowflake.Snowflake, Guild.MAX_ROLES)))
})
export type MemberPatchBody = typeof MemberPatchBody.Type

/** GET /guilds/{guild_id}/bans: a page ordered by user id. */
export const BansQuery = {
  limit: Fields.queryLimit(1, 1000, 1000),
  before: Schema.optionalKey(Snowflake.Snowflake),
  after: Schema.optionalKey(Snowflake.Snowflake)
}

/**
 * PUT /guilds/{guild_id}/bans/{user_id}: how much of the user's recent messages to delete
 * (`delete_message_days` is the deprecated spelling; seconds win when both are sent).
 * The reason comes in `X-Audit-Log-Reason`.
 */
export const BanBody = Schema.Struct({
  delete_message_seconds: Schema.optionalKey(Fields.intBetween(0, 604_800)),
  delete_message_days: Schema.optionalKey(Fields.intBetween(0, 7))
})
export type BanBody = typeof BanBody.Type

export class MembersApi extends HttpApiGroup.make("members")
  .add(
    HttpApiEndpoint.get("listMembers", "/guilds/:guild_id/members", {
      params: GuildParams,
      query: MembersQuery,
      success: Schema.Array(GuildSchemas.Member),
      error: [...inGuild, InvalidFormBody]
    }),
    HttpApiEndpoint.get("getMember", "/guilds/:guild_id/members/:user_id", {
      params: MemberParams,
      success: GuildSchemas.Member,
      error: [...inGuild, UnknownMember, UnknownUser]
    }),
    HttpApiEndpoint.patch("updateMember", "/guilds/:guild_id/members/:user_id", {
      params: MemberParams,
      payload: MemberPatchBody,
      success: GuildSchemas.Member,
      error: [...managing, UnknownMember, UnknownUser, UnknownRole, InvalidFormBody]
    }),
    // Kick.
    HttpApiEndpoint.delete("removeMember", "/guilds/:guild_id/members/:user_id", {
      params: UserParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownMember, UnknownUser]
    }),
    HttpApiEndpoint.get("listBans", "/guilds/:guild_id/bans", {
      params: GuildParams,
      query: BansQuery,
      success: Schema.Array(GuildSchemas.Ban),
      error: [...managing, InvalidFormBody]
    }),
    HttpApiEndpoint.get("getBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      success: GuildSchemas.Ban,
      error: [...managing, UnknownBan]
    }),
    HttpApiEndpoint.put("createBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      headers: Fields.AuditLogHeaders,
      payload: Fields.orEmpty(BanBody),
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("removeBan", "/guilds/:guild_id/bans/:user_id", {
      params: UserParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownBan]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Guild members (list, read, nickname and roles, kick; `@me` for the caller) and bans (the reason in X-Audit-Log-Reason)."
  ) {}
