/**
 * The messages group: a guild text channel's messages (send, history, read, edit, delete), typing
 * and pins, as the mirrored platform's API v10 has them. Path parameters are `channel_id` (the rate
 * limiter's bucket key) and `message_id`. Pure data.
 */
import {
  AgeRestrictedChannel,
  CannotEditOthersMessage,
  CannotSendEmptyMessage,
  InvalidChannelType,
  InvalidFormBody,
  MaxPinsReached,
  MissingAccess,
  MissingPermissions,
  SlowmodeRateLimit,
  UnknownChannel,
  UnknownMessage,
  VerificationRequired
} from "@veche/errors"
import * as Message from "@veche/messages/Message"
import * as MessageSchemas from "@veche/messages/MessageSchemas"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"

/** All the text of a message's embeds together (the platform's 6000). */
export const MAX_EMBED_TEXT = 6000

/** The schemes an embed's links and images may use, as on the platform. */
const EMBED_URL_SCHEMES = new Set(["http:", "https:"])

const parsedUrl = (s: string): URL | undefined => (URL.canParse(s) ? new URL(s) : undefined)

/**
 * A link or image address in an embed: well formed, and http or https only. Clients render these
 * as links and images, so `javascript:`, `data:` or `file:` would be stored for every reader.
 */
const EmbedUrl = Fields.lengthAtMost(2048).pipe(
  Schema.check(
    // not an address at all: its scheme is not judged too (one error, as on the platform)
    Schema.makeFilter((s: string) => parsedUrl(s) !== undefined, {
      message: "Not a well formed URL.",
      formCode: "URL_TYPE_INVALID_URL"
    }).abort()
  ),
  Schema.check(
    Schema.makeFilter((s: string) => EMBED_URL_SCHEMES.has(parsedUrl(s)?.protocol ?? ""), {
      message: "Scheme must be one of ('http', 'https').",
      formCode: "URL_TYPE_INVALID_SCHEME"
    })
  )
)

/** An embed as sent, with the platform's per-field limits. */
export const EmbedInput = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("rich")),
  title: Schema.optionalKey(Fields.lengthAtMost(256)),
  description: Schema.optionalKey(Fields.lengthAtMost(4096)),
  url: Schema.optionalKey(EmbedUrl),
  /** ISO 8601. */
  timestamp: Schema.optionalKey(
    Fields.lengthAtMost(64).pipe(
      Schema.check(
        Schema.makeFilter((s: string) => !Number.isNaN(Date.parse(s)), {
          message: "Could not interpret the timestamp.",
          formCode: "DATE_TIME_TYPE_PARSE"
        })
      )
    )
  ),
  color: Schema.optionalKey(Fields.Color),
  footer: Schema.optionalKey(
    Schema.Struct({ text: Fields.lengthBetween(1, 2048), icon_url: Schema.optionalKey(EmbedUrl) })
  ),
  image: Schema.optionalKey(Schema.Struct({ url: EmbedUrl })),
  thumbnail: Schema.optionalKey(Schema.Struct({ url: EmbedUrl })),
  author: Schema.optionalKey(
    Schema.Struct({
      name: Fields.lengthBetween(1, 256),
      url: Schema.optionalKey(EmbedUrl),
      icon_url: Schema.optionalKey(EmbedUrl)
    })
  ),
  fields: Schema.optionalKey(
    Fields.arrayAtMost(
      Schema.Struct({
        name: Fields.lengthBetween(1, 256),
        value: Fields.lengthBetween(1, 1024),
        inline: Schema.optionalKey(Schema.Boolean)
      }),
      25
    )
  )
})
export type EmbedInput = typeof EmbedInput.Type

const textOf = (embed: EmbedInput): number =>
  (embed.title?.length ?? 0) +
  (embed.description?.length ?? 0) +
  (embed.footer?.text.length ?? 0) +
  (embed.author?.name.length ?? 0) +
  (embed.fields ?? []).reduce((sum, field) => sum + field.name.length + field.value.length, 0)

export const Embeds = Fields.arrayAtMost(EmbedInput, Message.MAX_EMBEDS).pipe(
  Schema.check(
    Schema.makeFilter(
      (embeds: ReadonlyArray<EmbedInput>) => embeds.reduce((n, e) => n + textOf(e), 0) <= MAX_EMBED_TEXT,
      {
        message: `Embed size exceeds maximum size of ${MAX_EMBED_TEXT}`,
        formCode: "MAX_EMBED_SIZE_EXCEEDED"
      }
    )
  )
)

export const AllowedMentionsInput = Schema.Struct({
  parse: Schema.optionalKey(Fields.arrayAtMost(Schema.Literals(["users", "roles", "everyone"]), 3)),
  users: Schema.optionalKey(Fields.arrayAtMost(Snowflake.Snowflake, 100)),
  roles: Schema.optionalKey(Fields.arrayAtMost(Snowflake.Snowflake, 100)),
  replied_user: Schema.optionalKey(Schema.Boolean)
})
export type AllowedMentionsInput = typeof AllowedMentionsInput.Type

/** A string of at most 25 characters or an integer, as the platform takes a nonce. */
export const NonceInput = Schema.Union([Fields.lengthAtMost(25), Schema.Int])

// The longest any author may write (Plus); the domain holds each author to their own limit.
export const MessageContent = Fields.lengthAtMost(Message.MAX_CONTENT_PLUS)

/** POST /channels/{channel_id}/messages (JSON; attachments, stickers and components are not taken yet). */
export const MessageCreateBody = Schema.Struct({
  content: Schema.optionalKey(MessageContent),
  nonce: Schema.optionalKey(NonceInput),
  tts: Schema.optionalKey(Schema.Boolean),
  embeds: Schema.optionalKey(Embeds),
  /** Deprecated on the platform: one embed. */
  embed: Schema.optionalKey(Schema.NullOr(EmbedInput)),
  allowed_mentions: Schema.optionalKey(AllowedMentionsInput),
  message_reference: Schema.optionalKey(
    Schema.Struct({
      message_id: Snowflake.Snowflake,
      channel_id: Schema.optionalKey(Snowflake.Snowflake),
      guild_id: Schema.optionalKey(Snowflake.Snowflake),
      fail_if_not_exists: Schema.optionalKey(Schema.Boolean)
    })
  ),
  flags: Schema.optionalKey(Fields.Int32)
})
export type MessageCreateBody = typeof MessageCreateBody.Type

/** PATCH /channels/{channel_id}/messages/{message_id}: null empties a field. */
export const MessagePatchBody = Schema.Struct({
  content: Schema.optionalKey(Schema.NullOr(MessageContent)),
  embeds: Schema.optionalKey(Schema.NullOr(Embeds)),
  allowed_mentions: Schema.optionalKey(Schema.NullOr(AllowedMentionsInput)),
  flags: Schema.optionalKey(Schema.NullOr(Fields.Int32))
})
export type MessagePatchBody = typeof MessagePatchBody.Type

/** GET /channels/{channel_id}/messages: one of before/after/around (the first given wins), limit 1–100. */
export const MessagesQuery = {
  around: Schema.optionalKey(Snowflake.Snowflake),
  before: Schema.optionalKey(Snowflake.Snowflake),
  after: Schema.optionalKey(Snowflake.Snowflake),
  limit: Fields.queryLimit(1, Message.MAX_PAGE, Message.DEFAULT_PAGE)
}

export const ChannelParams = { channel_id: Snowflake.Snowflake }
export const MessageParams = { channel_id: Snowflake.Snowflake, message_id: Snowflake.Snowflake }

/** The channel does not exist, the caller cannot see it, it is not a text channel, or it is age-restricted for them. */
const inChannel = [UnknownChannel, MissingAccess, InvalidChannelType, AgeRestrictedChannel] as const

export class MessagesApi extends HttpApiGroup.make("messages")
  .add(
    HttpApiEndpoint.get("listMessages", "/channels/:channel_id/messages", {
      params: ChannelParams,
      query: MessagesQuery,
      success: Schema.Array(MessageSchemas.Message),
      error: [...inChannel, InvalidFormBody]
    }),
    HttpApiEndpoint.post("createMessage", "/channels/:channel_id/messages", {
      params: ChannelParams,
      payload: MessageCreateBody,
      success: MessageSchemas.Message,
      error: [
        ...inChannel,
        MissingPermissions,
        CannotSendEmptyMessage,
        SlowmodeRateLimit,
        VerificationRequired,
        InvalidFormBody
      ]
    }),
    HttpApiEndpoint.get("getMessage", "/channels/:channel_id/messages/:message_id", {
      params: MessageParams,
      success: MessageSchemas.Message,
      error: [...inChannel, UnknownMessage]
    }),
    HttpApiEndpoint.patch("editMessage", "/channels/:channel_id/messages/:message_id", {
      params: MessageParams,
      payload: MessagePatchBody,
      success: MessageSchemas.Message,
      error: [...inChannel, UnknownMessage, CannotEditOthersMessage, CannotSendEmptyMessage, InvalidFormBody]
    }),
    HttpApiEndpoint.delete("deleteMessage", "/channels/:channel_id/messages/:message_id", {
      params: MessageParams,
      success: HttpApiSchema.NoContent,
      error: [...inChannel, UnknownMessage, MissingPermissions]
    }),
    HttpApiEndpoint.post("triggerTyping", "/channels/:channel_id/typing", {
      params: ChannelParams,
      success: HttpApiSchema.NoContent,
      error: [...inChannel, MissingPermissions]
    }),
    HttpApiEndpoint.get("listPins", "/channels/:channel_id/pins", {
      params: ChannelParams,
      success: Schema.Array(MessageSchemas.Message),
      error: inChannel
    }),
    HttpApiEndpoint.put("pinMessage", "/channels/:channel_id/pins/:message_id", {
      params: MessageParams,
      success: HttpApiSchema.NoContent,
      error: [...inChannel, UnknownMessage, MissingPermissions, MaxPinsReached]
    }),
    HttpApiEndpoint.delete("unpinMessage", "/channels/:channel_id/pins/:message_id", {
      params: MessageParams,
      success: HttpApiSchema.NoContent,
      error: [...inChannel, UnknownMessage, MissingPermissions]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "Messages of guild text channels: send, history (before/after/around), read, edit, delete; typing; pins."
  ) {}
