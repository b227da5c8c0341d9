/** Builds the wire shapes (MessageSchemas) from stored messages and the users they name. */
import type { Snowflake } from "@veche/platform"
import type { PublicUser } from "@veche/users"
import { DateTime } from "effect"
import type { Message } from "./Message.ts"
import type * as MessageSchemas from "./MessageSchemas.ts"

/** Users by id (authors and mentioned users); an unknown one is shown as the deleted user. */
export type Users = ReadonlyMap<Snowflake.Snowflake, PublicUser.PublicUser>

/** Who an author or mention is when their user row is gone (never, while users are anonymised instead). */
const unknownUser = (id: Snowflake.Snowflake, bot: boolean): PublicUser.PublicUser => ({
  id,
  username: "deleted_user",
  discriminator: "0",
  global_name: null,
  avatar: null,
  banner: null,
  accent_color: null,
  avatar_decoration_data: null,
  public_flags: 0,
  bot
})

const base = (message: Message, users: Users) => ({
  id: message.id,
  channel_id: message.channelId,
  guild_id: message.guildId,
  author: users.get(message.authorId) ?? unknownUser(message.authorId, message.authorBot),
  content: message.content,
  timestamp: DateTime.formatIso(message.createdAt),
  edited_timestamp: message.editedAt === null ? null : DateTime.formatIso(message.editedAt),
  tts: message.tts,
  mention_everyone: message.mentionEveryone,
  mentions: message.mentionUserIds.flatMap((id) => {
    const user = users.get(id)
    return user === undefined ? [] : [user]
  }),
  mention_roles: message.mentionRoleIds,
  attachments: [],
  embeds: message.embeds,
  pinned: message.pinnedAt !== null,
  type: message.type,
  flags: 0,
  components: [],
  ...(message.referencedMessageId === null
    ? {}
    : {
        message_reference: {
          type: 0 as const,
          message_id: message.referencedMessageId,
          channel_id: message.channelId,
          guild_id: message.guildId
        }
      })
})

/**
 * The message object. `referenced` is the message a reply answers (none: it is gone), looked up by
 * the caller; `withNonce` only on the answer to its creation and MESSAGE_CREATE, as on the platform.
 */
export const message = (
  message: Message,
  users: Users,
  referenced?: Message | null,
  withNonce = false
): MessageSchemas.Message => ({
  ...base(message, users),
  ...(withNonce && message.nonce !== null ? { nonce: message.nonce } : {}),
  ...(message.referencedMessageId === null
    ? {}
    : { referenced_message: referenced == null ? null : base(referenced, users) })
})

/** The user ids a set of messages shows (authors, mentions), for one lookup. */
export const userIdsOf = (messages: ReadonlyArray<Message>): ReadonlyArray<Snowflake.Snowflake> => [
  ...new Set(messages.flatMap((m) => [m.authorId, ...m.mentionUserIds]))
]
