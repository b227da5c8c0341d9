/**
 * Gateway intents as the mirrored platform defines them (v10): which bit a session sets to receive
 * which dispatches, which are privileged for bots, and the application flags that allow those. A
 * session receives a dispatch only when it set the dispatch's intent (dispatches without one, such
 * as READY or USER_UPDATE, always arrive).
 */

export const GUILDS = 1 << 0
export const GUILD_MEMBERS = 1 << 1
export const GUILD_MODERATION = 1 << 2
export const GUILD_EXPRESSIONS = 1 << 3
export const GUILD_INTEGRATIONS = 1 << 4
export const GUILD_WEBHOOKS = 1 << 5
export const GUILD_INVITES = 1 << 6
export const GUILD_VOICE_STATES = 1 << 7
export const GUILD_PRESENCES = 1 << 8
export const GUILD_MESSAGES = 1 << 9
export const GUILD_MESSAGE_REACTIONS = 1 << 10
export const GUILD_MESSAGE_TYPING = 1 << 11
export const DIRECT_MESSAGES = 1 << 12
export const DIRECT_MESSAGE_REACTIONS = 1 << 13
export const DIRECT_MESSAGE_TYPING = 1 << 14
export const MESSAGE_CONTENT = 1 << 15
export const GUILD_SCHEDULED_EVENTS = 1 << 16
export const AUTO_MODERATION_CONFIGURATION = 1 << 20
export const AUTO_MODERATION_EXECUTION = 1 << 21
export const GUILD_MESSAGE_POLLS = 1 << 24
export const DIRECT_MESSAGE_POLLS = 1 << 25

/** Every bit the platform defines; a value with any other bit is invalid (close 4013). */
export const ALL =
  GUILDS |
  GUILD_MEMBERS |
  GUILD_MODERATION |
  GUILD_EXPRESSIONS |
  GUILD_INTEGRATIONS |
  GUILD_WEBHOOKS |
  GUILD_INVITES |
  GUILD_VOICE_STATES |
  GUILD_PRESENCES |
  GUILD_MESSAGES |
  GUILD_MESSAGE_REACTIONS |
  GUILD_MESSAGE_TYPING |
  DIRECT_MESSAGES |
  DIRECT_MESSAGE_REACTIONS |
  DIRECT_MESSAGE_TYPING |
  MESSAGE_CONTENT |
  GUILD_SCHEDULED_EVENTS |
  AUTO_MODERATION_CONFIGURATION |
  AUTO_MODERATION_EXECUTION |
  GUILD_MESSAGE_POLLS |
  DIRECT_MESSAGE_POLLS

/** What a bot may ask for only when its application allows it (else close 4014). */
export const PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES

/**
 * Application flags (v10) that allow privileged intents: the unlimited ones are granted after
 * review on the platform, the `_LIMITED` ones by the developer for bots in fewer than 100 servers.
 * Either allows the intent. (MESSAGE_CONTENT is privileged too, but asking without it is no error:
 * the platform then empties `content`.)
 */
export const ApplicationFlags = {
  GATEWAY_PRESENCE: 1 << 12,
  GATEWAY_PRESENCE_LIMITED: 1 << 13,
  GATEWAY_GUILD_MEMBERS: 1 << 14,
  GATEWAY_GUILD_MEMBERS_LIMITED: 1 << 15,
  GATEWAY_MESSAGE_CONTENT: 1 << 18,
  GATEWAY_MESSAGE_CONTENT_LIMITED: 1 << 19
} as const

/** The privileged intents an application's flags allow its bot. */
export const allowedBy = (applicationFlags: number): number =>
  (applicationFlags & (ApplicationFlags.GATEWAY_GUILD_MEMBERS | ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED)
    ? GUILD_MEMBERS
    : 0) |
  (applicationFlags & (ApplicationFlags.GATEWAY_PRESENCE | ApplicationFlags.GATEWAY_PRESENCE_LIMITED)
    ? GUILD_PRESENCES
    : 0)

export type Check = { readonly _tag: "Valid" } | { readonly _tag: "Invalid" } | { readonly _tag: "Disallowed" }

/** Whether a bot (or user) may identify with `intents`: integer, only known bits, privileged ones allowed. */
export const check = (intents: number, bot: boolean, applicationFlags: number): Check => {
  if (!Number.isSafeInteger(intents) || intents < 0 || (intents & ~ALL) !== 0 || intents > ALL)
    return { _tag: "Invalid" }
  if (bot && (intents & PRIVILEGED & ~allowedBy(applicationFlags)) !== 0) return { _tag: "Disallowed" }
  return { _tag: "Valid" }
}

/** A dispatch's intent by name, for dispatches sent to guilds (`guild`) and outside them (`direct`). */
const BY_NAME: Readonly<Record<string, { readonly guild: number; readonly direct: number }>> = {
  GUILD_CREATE: { guild: GUILDS, direct: GUILDS },
  GUILD_UPDATE: { guild: GUILDS, direct: GUILDS },
  GUILD_DELETE: { guild: GUILDS, direct: GUILDS },
  GUILD_ROLE_CREATE: { guild: GUILDS, direct: GUILDS },
  GUILD_ROLE_UPDATE: { guild: GUILDS, direct: GUILDS },
  GUILD_ROLE_DELETE: { guild: GUILDS, direct: GUILDS },
  CHANNEL_CREATE: { guild: GUILDS, direct: 0 },
  CHANNEL_UPDATE: { guild: GUILDS, direct: 0 },
  CHANNEL_DELETE: { guild: GUILDS, direct: 0 },
  CHANNEL_PINS_UPDATE: { guild: GUILDS, direct: DIRECT_MESSAGES },
  GUILD_MEMBER_ADD: { guild: GUILD_MEMBERS, direct: GUILD_MEMBERS },
  GUILD_MEMBER_UPDATE: { guild: GUILD_MEMBERS, direct: GUILD_MEMBERS },
  GUILD_MEMBER_REMOVE: { guild: GUILD_MEMBERS, direct: GUILD_MEMBERS },
  GUILD_BAN_ADD: { guild: GUILD_MODERATION, direct: GUILD_MODERATION },
  GUILD_BAN_REMOVE: { guild: GUILD_MODERATION, direct: GUILD_MODERATION },
  INVITE_CREATE: { guild: GUILD_INVITES, direct: GUILD_INVITES },
  INVITE_DELETE: { guild: GUILD_INVITES, direct: GUILD_INVITES },
  // to friends (a user's own sessions, never bots) no intent; to guilds the presence intent
  PRESENCE_UPDATE: { guild: GUILD_PRESENCES, direct: 0 },
  MESSAGE_CREATE: { guild: GUILD_MESSAGES, direct: DIRECT_MESSAGES },
  MESSAGE_UPDATE: { guild: GUILD_MESSAGES, direct: DIRECT_MESSAGES },
  MESSAGE_DELETE: { guild: GUILD_MESSAGES, direct: DIRECT_MESSAGES },
  MESSAGE_DELETE_BULK: { guild: GUILD_MESSAGES, direct: DIRECT_MESSAGES },
  MESSAGE_REACTION_ADD: { guild: GUILD_MESSAGE_REACTIONS, direct: DIRECT_MESSAGE_REACTIONS },
  MESSAGE_REACTION_REMOVE: { guild: GUILD_MESSAGE_REACTIONS, direct: DIRECT_MESSAGE_REACTIONS },
  TYPING_START: { guild: GUILD_MESSAGE_TYPING, direct: DIRECT_MESSAGE_TYPING }
}

/** The intent a session needs to receive dispatch `name` (0: none), sent to a guild or not. */
export const required = (name: string, toGuild: boolean): number => {
  const found = Object.hasOwn(BY_NAME, name) ? BY_NAME[name] : undefined
  if (found === undefined) return 0
  return toGuild ? found.guild : found.direct
}

/** What a user's (not a bot's) session receives when it names no intents: everything. */
export const USER_DEFAULT = ALL
