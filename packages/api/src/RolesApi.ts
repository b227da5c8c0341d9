/**
 * The "roles" group: a guild's roles (list, read, create, edit, reorder, delete). Routes, bodies and
 * answers follow the mirrored platform's API v10. Pure data.
 */
import { InvalidFormBody, MaxRolesReached, UnknownRole } from "@veche/errors"
import * as Guild from "@veche/guilds/Guild"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams, inGuild, managing } from "./GuildRoutes.ts"

export const RoleParams = { guild_id: Snowflake.Snowflake, role_id: Snowflake.Snowflake }

/** The name a role gets when POST /guilds/{guild_id}/roles sends none (or null). */
export const DEFAULT_ROLE_NAME = "new role"

/** `colors` (newer libraries send it instead of `color`): only the primary colour is kept. */
export const RoleColorsInput = Schema.Struct({
  primary_color: Fields.Color,
  secondary_color: Schema.optionalKey(Schema.NullOr(Fields.Color)),
  tertiary_color: Schema.optionalKey(Schema.NullOr(Fields.Color))
})

/**
 * POST /guilds/{guild_id}/roles and PATCH /guilds/{guild_id}/roles/{role_id}: all optional and
 * nullable as in v10. On creation null or absent means the default: the name `DEFAULT_ROLE_NAME`,
 * no permissions beyond @everyone's, colour 0, not hoisted, not mentionable. `colors.primary_color`
 * stands for `color` when `color` is absent.
 */
export const RoleBody = Schema.Struct({
  name: Schema.optionalKey(Schema.NullOr(Fields.lengthAtMost(100))),
  permissions: Schema.optionalKey(Schema.NullOr(Fields.PermissionsInput)),
  color: Schema.optionalKey(Schema.NullOr(Fields.Color)),
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
    }),
    HttpApiEndpoint.get("getRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      success: GuildSchemas.Role,
      error: [...inGuild, UnknownRole]
    }),
    HttpApiEndpoint.post("createRole", "/guilds/:guild_id/roles", {
      params: GuildParams,
      payload: Fields.orEmpty(RoleBody),
      success: GuildSchemas.Role,
      error: [...managing, MaxRolesReached, InvalidFormBody]
    }),
    HttpApiEndpoint.patch("reorderRoles", "/guilds/:guild_id/roles", {
      params: GuildParams,
      payload: RolePositionsBody,
      success: Schema.Array(GuildSchemas.Role),
      error: [...managing, UnknownRole, InvalidFormBody]
    }),
    HttpApiEndpoint.patch("updateRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      payload: RoleBody,
      success: GuildSchemas.Role,
      error: [...managing, UnknownRole, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("deleteRole", "/guilds/:guild_id/roles/:role_id", {
      params: RoleParams,
      success: HttpApiSchema.NoContent,
      error: [...managing, UnknownRole]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Guild roles: list, read, create, edit, reorder, delete.") {}
