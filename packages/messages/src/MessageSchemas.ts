/**
 * The wire shapes of the messages domain, shared by the REST answers and the gateway dispatches:
 * the mirrored platform's v10 message object (what this service fills truthfully: no attachments,
 * reactions or components yet), the embed object, and the payloads of MESSAGE_DELETE, TYPING_START
 * and CHANNEL_PINS_UPDATE. Snake case as on the wire.
 */
import * as Snowflake from "@veche/platform/Snowflake"
import * as PublicUser from "@veche/users/PublicUser"
import { Schema } from "effect"

const EmbedFooter = Schema.Struct({ text: Schema.String, icon_url: Schema.optionalKey(Schema.String) })
const EmbedMedia = Schema.Struct({ url: Schema.String })
const EmbedAuthor = Schema.Struct({
  name: Schema.String,
  url: Schema.optionalKey(Schema.String),
  icon_url: Schema.optionalKey(Schema.String)
})
const EmbedField = Schema.Struct({
  name: Schema.String,
  value: Schema.String,
  inline: Schema.optionalKey(Schema.Boolean)
})

/** A rich embed as stored and shown (the request side, with its limits, is in @veche/api). */
export const Embed = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("rich")),
  title: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String),
  url: Schema.optionalKey(Schema.String),
  timestamp: Schema.optionalKey(Schema.String),
  color: Schema.optionalKey(Schema.Int),
  footer: Schema.optionalKey(EmbedFooter),
  image: Schema.optionalKey(EmbedMedia),
  thumbnail: Schema.optionalKey(EmbedMedia),
  author: Schema.optionalKey(EmbedAuthor),
  fields: Schema.optionalKey(Schema.Array(EmbedField))
})
export type Embed = typeof Embed.Type

/** A nonce as the client sent it (a string or an integer), echoed on the created message. */
export const Nonce = Schema.Union([Schema.String, Schema.Int])
export type Nonce = typeof Nonce.Type

export const MessageReference = Schema.Struct({
  /** 0: a reply. */
  type: Schema.Literal(0),
  message_id: Snowflake.Snowflake,
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake
})

const messageFields = {
  id: Snowflake.Snowflake,
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake,
  author: PublicUser.PublicUser,
  content: Schema.String,
  /** ISO 8601. */
  timestamp: Schema.String,
  edited_timestamp: Schema.NullOr(Schema.String),
  tts: Schema.Boolean,
  mention_everyone: Schema.Boolean,
  mentions: Schema.Array(PublicUser.PublicUser),
  mention_roles: Schema.Array(Snowflake.Snowflake),
  attachments: Schema.Array(Schema.Never),
  embeds: Schema.Array(Embed),
  pinned: Schema.Boolean,
  /** 0 default, 19 reply. */
  type: Schema.Literals([0, 19]),
  flags: Schema.Int,
  components: Schema.Array(Schema.Never),
  nonce: Schema.optionalKey(Nonce),
  message_reference: Schema.optionalKey(MessageReference)
}

/** A message that another one replies to, shown one level deep (its own reference is not expanded). */
export const ReferencedMessage = Schema.Struct(messageFields)

/** The v10 message object; a reply carries the message it answers (null when that one is gone). */
export const Message = Schema.Struct({
  ...messageFields,
  referenced_message: Schema.optionalKey(Schema.NullOr(ReferencedMessage))
})
export type Message = typeof Message.Type

/** MESSAGE_DELETE. */
export const MessageDeleteEvent = Schema.Struct({
  id: Snowflake.Snowflake,
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake
})
export type MessageDeleteEvent = typeof MessageDeleteEvent.Type

/** TYPING_START: `timestamp` in Unix seconds, as on the platform. */
export const TypingStartEvent = Schema.Struct({
  channel_id: Snowflake.Snowflake,
  guild_id: Snowflake.Snowflake,
  user_id: Snowflake.Snowflake,
  timestamp: Schema.Int
})
export type TypingStartEvent = typeof TypingStartEvent.Type

/** CHANNEL_PINS_UPDATE: the newest pin's time, null when none is left. */
export const ChannelPinsUpdateEvent = Schema.Struct({
  guild_id: Snowflake.Snowflake,
  channel_id: Snowflake.Snowflake,
  last_pin_timestamp: Schema.NullOr(Schema.String)
})
export type ChannelPinsUpdateEvent = typeof ChannelPinsUpdateEvent.Type
