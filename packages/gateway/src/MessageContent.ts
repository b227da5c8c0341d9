/**
 * The MESSAGE_CONTENT gate (v10): a bot that did not ask for the MESSAGE_CONTENT intent, or whose
 * application may not have it, receives MESSAGE_CREATE and MESSAGE_UPDATE with `content`, `embeds`,
 * `attachments` and `components` empty, except for messages it sent, messages that mention it and
 * messages outside guilds (its DMs). Users' sessions always see content. A reply's
 * `referenced_message` is gated the same way on its own (a reply that mentions the bot keeps its
 * content, the message it answers may not). Each gated payload is a variant of the dispatch,
 * serialised once for every session that gets it (see Sessions): at most three besides the whole.
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

/** The message as a bot without the content intent sees it (its reply's reference too). */
export const withoutContent = (message: unknown): unknown => gated(message, false, false)

const emptied = (message: object): object => ({ ...message, content: "", embeds: [], attachments: [], components: [] })

/**
 * What a session without the content intent reads of `message` for `userId`: "whole" when nothing
 * is hidden from it, or which parts keep their content (the message, the one it replies to).
 */
export const variantFor = (message: unknown, userId: string): "whole" | "outer" | "reference" | "neither" => {
  const outer = shownTo(message, userId)
  const referenced = field(message, "referenced_message")
  const reference = referenced === undefined || referenced === null || shownTo(referenced, userId)
  return outer && reference ? "whole" : outer ? "outer" : reference ? "reference" : "neither"
}

/** The message with its content kept (or emptied) for itself and for the message it replies to. */
export const gated = (message: unknown, keepOuter: boolean, keepReference: boolean): unknown => {
  if (typeof message !== "object" || message === null) return message
  const referenced = field(message, "referenced_message")
  const outer = keepOuter ? message : emptied(message)
  return typeof referenced === "object" && referenced !== null && !keepReference
    ? { ...outer, referenced_message: emptied(referenced) }
    : outer
}
