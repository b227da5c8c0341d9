/**
 * A message as the store keeps it: in a guild text channel, by an author (a user or a bot), with
 * the mentions it resolved when it was written. The wire shape (MessageSchemas.Message) is derived
 * by MessageViews, never stored.
 */
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { Embed, Nonce } from "./MessageSchemas.ts"

/** The platform's limits. */
export const MAX_CONTENT = 2000
/** With Plus (AuthorLimits says whose messages may be this long). */
export const MAX_CONTENT_PLUS = 4000
export const MAX_EMBEDS = 10
export const MAX_PINS = 50
/** A page of history: 1–100, 50 when not asked. */
export const MAX_PAGE = 100
export const DEFAULT_PAGE = 50

/** 0 default, 19 a reply. */
export const MessageType = Schema.Literals([0, 19])

export const Message = Schema.Struct({
  id: Snowflake.Snowflake,
  channelId: Snowflake.Snowflake,
  guildId: Snowflake.Snowflake,
  authorId: Snowflake.Snowflake,
  /** Whether the author was a bot when it wrote (shown on the author object). */
  authorBot: Schema.Boolean,
  content: Schema.String,
  embeds: Schema.Array(Embed),
  mentionUserIds: Schema.Array(Snowflake.Snowflake),
  mentionRoleIds: Schema.Array(Snowflake.Snowflake),
  mentionEveryone: Schema.Boolean,
  nonce: Schema.NullOr(Nonce),
  tts: Schema.Boolean,
  type: MessageType,
  /** The message this one replies to (same channel). */
  referencedMessageId: Schema.NullOr(Snowflake.Snowflake),
  pinnedAt: Schema.NullOr(Schema.DateTimeUtc),
  editedAt: Schema.NullOr(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc
})
export type Message = typeof Message.Type

/** What an edit replaces (absent: unchanged); mentions are resolved again from the new content. */
export interface Edit {
  readonly content: string
  readonly embeds: ReadonlyArray<Embed>
  readonly mentionUserIds: ReadonlyArray<Snowflake.Snowflake>
  readonly mentionRoleIds: ReadonlyArray<Snowflake.Snowflake>
  readonly mentionEveryone: boolean
  readonly editedAt: Message["createdAt"]
}

/** Where a page of history starts: before or after a message, or around it; none is the newest. */
export type Cursor =
  | { readonly before: Snowflake.Snowflake }
  | { readonly after: Snowflake.Snowflake }
  | { readonly around: Snowflake.Snowflake }
  | Record<string, never>
