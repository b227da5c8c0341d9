/**
 * The gateway dispatches the messages domain publishes, as payload schemas by dispatch name (the
 * shapes live in MessageSchemas, shared with the REST answers). `MessageDispatch` joins
 * `Dispatch.Dispatch` through platform's registry, as the guilds domain's do (see @veche/platform
 * Dispatch); the gateway delivers them to the guild's members who can see the channel.
 */
import type { Dispatch } from "@veche/platform"
import * as MessageSchemas from "./MessageSchemas.ts"

export const schemas = {
  MESSAGE_CREATE: MessageSchemas.Message,
  MESSAGE_UPDATE: MessageSchemas.Message,
  MESSAGE_DELETE: MessageSchemas.MessageDeleteEvent,
  TYPING_START: MessageSchemas.TypingStartEvent,
  CHANNEL_PINS_UPDATE: MessageSchemas.ChannelPinsUpdateEvent
} satisfies Dispatch.Schemas

export type MessageDispatch = Dispatch.FromSchemas<typeof schemas>

declare module "@veche/platform" {
  namespace Dispatch {
    interface Registry {
      readonly messages: MessageDispatch
    }
  }
}
