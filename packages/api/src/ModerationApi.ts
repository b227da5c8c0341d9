/** The staff group: account blocks and restrictions. Staff are configured by the operator (SERVICE_STAFF_*). Pure data. */
import { BotsCannotUseThisEndpoint, InvalidFormBody, MissingPermissions, UnknownUser } from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"

export const BlockBody = Schema.Struct({
  reason: Fields.lengthBetween(1, 200),
  /** ISO 8601 with a time zone; absent or null for a permanent block. */
  until: Schema.optionalKey(Schema.NullOr(Schema.DateTimeUtcFromString))
})

export const BlockView = Schema.Struct({
  user_id: Snowflake.Snowflake,
  reason: Schema.String,
  until: Schema.NullOr(Schema.String),
  blocked_by: Schema.NullOr(Snowflake.Snowflake),
  created_at: Schema.String
})

/** The same rules as a block's: a reason of 1–200 characters, an optional end (null or absent: permanent). */
export const RestrictionBody = Schema.Struct({
  reason: BlockBody.fields.reason,
  until: BlockBody.fields.until
})

export const RestrictionView = Schema.Struct({
  user_id: Snowflake.Snowflake,
  reason: Schema.String,
  until: Schema.NullOr(Schema.String),
  restricted_by: Schema.NullOr(Snowflake.Snowflake),
  created_at: Schema.String
})

const params = { user_id: Snowflake.Snowflake }

export class ModerationApi extends HttpApiGroup.make("moderation")
  .add(
    HttpApiEndpoint.put("blockUser", "/moderation/users/:user_id/block", {
      params,
      payload: BlockBody,
      success: BlockView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("unblockUser", "/moderation/users/:user_id/block", {
      params,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser]
    }),
    HttpApiEndpoint.put("restrictUser", "/moderation/users/:user_id/restriction", {
      params,
      payload: RestrictionBody,
      success: RestrictionView,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("unrestrictUser", "/moderation/users/:user_id/restriction", {
      params,
      success: HttpApiSchema.NoContent,
      error: [BotsCannotUseThisEndpoint, MissingPermissions, UnknownUser]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Platform staff only (SERVICE_STAFF_USER_IDS / SERVICE_STAFF_PHONES): block and unblock accounts; " +
      "restrict and lift restrictions (a shadow restriction: friend requests and invitations answer 20025)."
  ) {}
