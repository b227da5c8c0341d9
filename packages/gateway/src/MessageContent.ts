/**
 * The MESSAGE_CONTENT gate (v10): a bot that did not ask for the MESSAGE_CONTENT intent, or whose
 * application may not have it, receives MESSAGE_CREATE and MESSAGE_UPDATE with `content`, `embeds`,
 * `attachments` and `components` empty, except for messages it sent, messages that mention it and
 * messages outside guilds (its DMs). Users' sessions always see content. The gated payload is a
 * second variant of the dispatch, serialised once for every session that gets it (see Sessions).
 */
import * as Intents from "./Intents.ts"

/** Whether a session reads message content: users always; a bot with the intent and its flag. */
export const readsContent = (bot: boolean, intents: number, applicationFlags: number): boolean =>
  !bot ||
  ((intents & Intents.MESSAGE_CONTENT) !== 0 &&
    (applicationFlags &
      (Intents.ApplicationFlags.GATEWAY_MESSAGE_CONTENT | Intents.ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED)) !==
      0)

/** The dispatches whose content the gate empties (MESSAGE_DELETE and the rest carry none). */
export const isGated = (name: string): boolean => name === "MESSAGE_CREATE" || name === "MESSAGE_UPDATE"

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Readonly<Record<string, unknown>>)[key]
    : undefined

/** Whether a message's content is shown to `userId` without the intent: its author or mentioned. */
export const shownTo = (message: unknown, userId: string): boolean => {
  if (field(field(message, "author"), "id") === userId) return true
  const mentions = field(message, "mentions")
  return Array.isArray(mentions) && mentions.some((mention: unknown) => field(mention, "id") === userId)
}

/** The message as a bot without the content intent sees it. */
export const withoutContent = (message: unknown): unknown =>
  typeof message === "object" && message !== null
    ? { ...message, content: "", embeds: [], attachments: [], components: [] }
    : message
