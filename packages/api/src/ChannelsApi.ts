/**
 * The channels group: a guild's channel list, creation and ordering, one channel (read, edit,
 * delete), its permission overwrites and its invites, as the mirrored platform's API v10 has them.
 * Path parameters are `guild_id` and `channel_id` (the rate limiter's bucket keys). Pure data.
 */
import {
  AccountRestricted,
  CannotDeleteCommunityChannel,
  InvalidChannelType,
  InvalidFormBody,
  MaxChannelsReached,
  MaxInvitesReached,
  MissingAccess,
  MissingPermissions,
  UnknownChannel,
  UnknownGuild
} from "@veche/errors"
import * as Guild from "@veche/guilds/Guild"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams } from "./GuildRoutes.ts"

/** Voice bitrate bounds of a guild without boosts (the only tier here). */
export const MIN_BITRATE = 8_000
export const MAX_BITRATE = 96_000

/**
 * Overwrites one channel body may carry (channel create and edit): the platform's per-channel
 * limit (30060, "Maximum number of channel permission overwrites reached") is 100.
 */
export const MAX_OVERWRITES = 100

/** A permission overwrite as sent: allow/deny may be left out or null (nothing). */
export const OverwriteInput = Schema.Struct({
  /** A role id (type 0) or a user id (type 1). */
  id: Snowflake.Snowflake,
  type: Schema.Literals([0, 1]),
  allow: Schema.optionalKey(Schema.NullOr(Fields.PermissionsInput)),
  deny: Schema.optionalKey(Schema.NullOr(Fields.PermissionsInput))
})
export type OverwriteInput = typeof OverwriteInput.Type

/** The fields a guild channel's creation and edit share; null means "the default" / "none". */
const channelFields = {
  topic: Schema.optionalKey(Schema.NullOr(Fields.lengthAtMost(1024))),
  bitrate: Schema.optionalKey(Schema.NullOr(Fields.intBetween(MIN_BITRATE, MAX_BITRATE))),
  user_limit: Schema.optionalKey(Schema.NullOr(Fields.intBetween(0, 99))),
  rate_limit_per_user: Schema.optionalKey(Schema.NullOr(Fields.intBetween(0, 21_600))),
  position: Schema.optionalKey(Schema.NullOr(Fields.Int32)),
  permission_overwrites: Schema.optionalKey(Schema.NullOr(Fields.arrayAtMost(OverwriteInput, MAX_OVERWRITES))),
  /** A category of the same guild; null puts it at the top level. */
  parent_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
  nsfw: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
}

/**
 * POST /guilds/{guild_id}/channels: 0 text (default), 2 voice, 4 category. Fields that do not apply
 * to the type (a topic on a voice channel) are ignored, as on the platform.
 */
export const ChannelCreateBody = Schema.Struct({
  name: Fields.lengthBetween(1, 100),
  type: Guild.ChannelType.pipe(Schema.withDecodingDefaultKey(Effect.succeed(0 as const))),
  ...channelFields
})
export type ChannelCreateBody = typeof ChannelCreateBody.Type

/** PATCH /channels/{channel_id}: the creation fields minus the type, all optional. */
export const ChannelPatchBody = Schema.Struct({
  name: Schema.optionalKey(Fields.lengthBetween(1, 100)),
  ...channelFields
})
export type ChannelPatchBody = typeof ChannelPatchBody.Type

/**
 * PATCH /guilds/{guild_id}/channels: new positions and parents; `lock_permissions` syncs a moved
 * channel's overwrites with its new category. At most one entry per channel a guild may have.
 */
export const ChannelPositionsBody = Fields.arrayAtMost(
  Schema.Struct({
    id: Snowflake.Snowflake,
    position: Schema.optionalKey(Schema.NullOr(Fields.Int32)),
    parent_id: Schema.optionalKey(Schema.NullOr(Snowflake.Snowflake)),
    lock_permissions: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
  }),
  Guild.MAX_CHANNELS
)
export type ChannelPositionsBody = typeof ChannelPositionsBody.Type

/** PUT /channels/{channel_id}/permissions/{overwrite_id}. */
export const OverwriteBody = Schema.Struct({
  type: Schema.Literals([0, 1]),
  allow: Schema.optionalKey(Schema.NullOr(Fields.PermissionsInput)),
  deny: Schema.optionalKey(Schema.NullOr(Fields.PermissionsInput))
})
export type OverwriteBody = typeof OverwriteBody.Type

/**
 * POST /channels/{channel_id}/invites, defaults applied: a day, unlimited uses, permanent
 * membership; `unique: false` may hand back an existing invite with the same settings.
 */
export const InviteCreateBody = Schema.Struct({
  max_age: Fields.intBetween(0, 604_800).pipe(Schema.withDecodingDefaultKey(Effect.succeed(86_400))),
  max_uses: Fields.intBetween(0, 100).pipe(Schema.withDecodingDefaultKey(Effect.succeed(0))),
  temporary: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false))),
  unique: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(false)))
})
export type InviteCreateBody = typeof InviteCreateBody.Type

export const ChannelParams = { channel_id: Snowflake.Snowflake }
export const OverwriteParams = { channel_id: Snowflake.Snowflake, overwrite_id: Snowflake.Snowflake }

/** The channel does not exist, or the caller cannot see it. */
const inChannel = [UnknownChannel, MissingAccess] as const
const managing = [...inChannel, MissingPermissions] as const

export class ChannelsApi extends HttpApiGroup.make("channels")
  .add(
    HttpApiEndpoint.get("listGuildChannels", "/guilds/:guild_id/channels", {
      params: GuildParams,
      success: Schema.Array(GuildSchemas.Channel),
      error: [UnknownGuild, MissingAccess]
    }),
    HttpApiEndpoint.post("createGuildChannel", "/guilds/:guild_id/channels", {
      params: GuildParams,
      payload: ChannelCreateBody,
      success: GuildSchemas.Channel.pipe(HttpApiSchema.status(201)),
      error: [UnknownGuild, MissingAccess, MissingPermissions, MaxChannelsReached, InvalidFormBody]
    }),
    HttpApiEndpoint.patch("reorderGuildChannels", "/guilds/:guild_id/channels", {
      params: GuildParams,
      payload: ChannelPositionsBody,
      success: HttpApiSchema.NoContent,
      error: [UnknownGuild, MissingAccess, MissingPermissions, UnknownChannel, InvalidFormBody]
    }),
    HttpApiEndpoint.get("getChannel", "/channels/:channel_id", {
      params: ChannelParams,
      success: GuildSchemas.Channel,
      error: inChannel
    }),
    HttpApiEndpoint.patch("updateChannel", "/channels/:channel_id", {
      params: ChannelParams,
      payload: ChannelPatchBody,
      success: GuildSchemas.Channel,
      error: [...managing, InvalidChannelType, InvalidFormBody]
    }),
    // Answers the deleted channel.
    HttpApiEndpoint.delete("deleteChannel", "/channels/:channel_id", {
      params: ChannelParams,
      success: GuildSchemas.Channel,
      error: [...managing, CannotDeleteCommunityChannel]
    }),
    HttpApiEndpoint.put("putOverwrite", "/channels/:channel_id/permissions/:overwrite_id", {
      params: OverwriteParams,
      payload: OverwriteBody,
      success: HttpApiSchema.NoContent,
      error: [...managing, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("deleteOverwrite", "/channels/:channel_id/permissions/:overwrite_id", {
      params: OverwriteParams,
      success: HttpApiSchema.NoContent,
      error: managing
    }),
    HttpApiEndpoint.post("createInvite", "/channels/:channel_id/invites", {
      params: ChannelParams,
      payload: Fields.orEmpty(InviteCreateBody),
      success: GuildSchemas.InviteWithMetadata,
      error: [...managing, MaxInvitesReached, AccountRestricted, InvalidChannelType, InvalidFormBody]
    }),
    HttpApiEndpoint.get("listChannelInvites", "/channels/:channel_id/invites", {
      params: ChannelParams,
      success: Schema.Array(GuildSchemas.InviteWithMetadata),
      error: managing
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Guild channels (text, voice, category): list, create, reorder, read, edit, delete; permission overwrites; channel invites."
  ) {}
