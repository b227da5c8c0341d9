/**
 * The gateway dispatches the guilds domain publishes (through GuildEvents), as payload schemas by
 * dispatch name; the shapes themselves live in GuildSchemas, shared with the REST answers, and
 * GuildViews builds them. `GuildDispatch` joins `Dispatch.Dispatch` through platform's registry
 * (see @veche/platform Dispatch), so the EventBus accepts exactly these names with these payloads.
 */
import type { Dispatch } from "@veche/platform"
import * as GuildSchemas from "./GuildSchemas.ts"

export const schemas = {
  GUILD_CREATE: GuildSchemas.GuildCreate,
  GUILD_UPDATE: GuildSchemas.GuildUpdateEvent,
  GUILD_DELETE: GuildSchemas.GuildDeleteEvent,
  GUILD_MEMBER_ADD: GuildSchemas.GuildMemberEvent,
  GUILD_MEMBER_UPDATE: GuildSchemas.GuildMemberEvent,
  GUILD_MEMBER_REMOVE: GuildSchemas.GuildUserEvent,
  GUILD_BAN_ADD: GuildSchemas.GuildUserEvent,
  GUILD_BAN_REMOVE: GuildSchemas.GuildUserEvent,
  GUILD_ROLE_CREATE: GuildSchemas.GuildRoleEvent,
  GUILD_ROLE_UPDATE: GuildSchemas.GuildRoleEvent,
  GUILD_ROLE_DELETE: GuildSchemas.GuildRoleDeleteEvent,
  CHANNEL_CREATE: GuildSchemas.ChannelEvent,
  CHANNEL_UPDATE: GuildSchemas.ChannelEvent,
  CHANNEL_DELETE: GuildSchemas.ChannelEvent,
  INVITE_CREATE: GuildSchemas.InviteCreateEvent,
  INVITE_DELETE: GuildSchemas.InviteDeleteEvent
} satisfies Dispatch.Schemas

export type GuildDispatch = Dispatch.FromSchemas<typeof schemas>

declare module "@veche/platform" {
  namespace Dispatch {
    interface Registry {
      readonly guilds: GuildDispatch
    }
  }
}
