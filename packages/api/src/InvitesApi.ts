/**
 * The invites group: a guild's invite list, and an invite by its code — read it, accept it (users
 * only: it makes the caller a member), delete it. Creating one is POST /channels/{channel_id}/invites
 * in the channels group. Shapes follow the mirrored platform's API v10. Pure data.
 */
import {
  AccountRestricted,
  Banned,
  BotsCannotUseThisEndpoint,
  MaxGuildsReached,
  MissingAccess,
  MissingPermissions,
  UnknownGuild,
  UnknownInvite,
  VerificationRequired
} from "@veche/errors"
import * as GuildSchemas from "@veche/guilds/GuildSchemas"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"
import { GuildParams } from "./GuildRoutes.ts"

/** Any text: an unknown or malformed code is simply an unknown invite (10006), never a 50035. */
export const CodeParams = { code: Schema.String }

export const InviteQuery = {
  ...Fields.WithCountsQuery,
  /** Accepted for compatibility: `expires_at` is always sent. */
  with_expiration: Schema.optionalKey(Fields.QueryBoolean)
}

export class InvitesApi extends HttpApiGroup.make("invites")
  .add(
    HttpApiEndpoint.get("listGuildInvites", "/guilds/:guild_id/invites", {
      params: GuildParams,
      success: Schema.Array(GuildSchemas.InviteWithMetadata),
      error: [UnknownGuild, MissingAccess, MissingPermissions]
    }),
    HttpApiEndpoint.get("getInvite", "/invites/:code", {
      params: CodeParams,
      query: InviteQuery,
      success: GuildSchemas.Invite,
      error: UnknownInvite
    }),
    // Joins the guild. Any request body is ignored. A member already in the guild gets
    // `new_member: false`; a banned user 40007; an account the guild's verification level keeps
    // out 40002.
    HttpApiEndpoint.post("acceptInvite", "/invites/:code", {
      params: CodeParams,
      success: GuildSchemas.AcceptedInvite,
      error: [
        BotsCannotUseThisEndpoint,
        UnknownInvite,
        Banned,
        MaxGuildsReached,
        VerificationRequired,
        AccountRestricted
      ]
    }),
    // Answers the deleted invite. Manage Guild, Manage Channels on its channel, or its creator.
    HttpApiEndpoint.delete("deleteInvite", "/invites/:code", {
      params: CodeParams,
      success: GuildSchemas.Invite,
      error: [UnknownInvite, MissingAccess, MissingPermissions]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Invites: a guild's invite list; an invite by code (read, accept to join the guild, delete). Create one with POST /channels/{channel_id}/invites."
  ) {}
