/**
 * The API's error catalogue as plain data: one entry per condition of the spec's "Errors" table
 * (code, HTTP status, message, texts copied verbatim), plus the general code-0 answers for bare HTTP
 * statuses. Everything else in this package (error classes, plain body encoders) is derived from
 * here, so a code or message is written once.
 *
 * A table row with two statuses (40032, 60003) becomes one entry per status, because the HTTP
 * status belongs to the error, and a client tells errors apart by status first.
 */

/** One catalogue entry. `mfa` marks the one answer whose body carries an extra `mfa: true`. */
export interface Entry {
  readonly code: number
  readonly status: number
  readonly message: string
  readonly mfa?: true
}

export const entries = {
  // 10xxx: unknown resources
  UnknownApplication: { code: 10002, status: 404, message: "Unknown Application" },
  UnknownChannel: { code: 10003, status: 404, message: "Unknown Channel" },
  UnknownGuild: { code: 10004, status: 404, message: "Unknown Guild" },
  UnknownInvite: { code: 10006, status: 404, message: "Unknown Invite" },
  UnknownMember: { code: 10007, status: 404, message: "Unknown Member" },
  UnknownMessage: { code: 10008, status: 404, message: "Unknown Message" },
  UnknownRole: { code: 10011, status: 404, message: "Unknown Role" },
  UnknownUser: { code: 10013, status: 404, message: "Unknown User" },
  UnknownEmoji: { code: 10014, status: 404, message: "Unknown Emoji" },
  UnknownWebhook: { code: 10015, status: 404, message: "Unknown Webhook" },
  UnknownBan: { code: 10026, status: 404, message: "Unknown Ban" },
  UnknownSticker: { code: 10060, status: 404, message: "Unknown Sticker" },

  // 20xxx: who may call what
  BotsCannotUseThisEndpoint: { code: 20001, status: 403, message: "Bots cannot use this endpoint" },
  OnlyBotsCanUseThisEndpoint: { code: 20002, status: 403, message: "Only bots can use this endpoint" },
  SlowmodeRateLimit: { code: 20016, status: 429, message: "Slowmode rate limit" },
  AgeRestrictedChannel: { code: 20024, status: 403, message: "Cannot access age-restricted channel" },
  AccountRestricted: { code: 20025, status: 403, message: "Account restricted" },

  // 30xxx: counted limits
  MaxGuildsReached: { code: 30001, status: 400, message: "Maximum number of guilds reached (100)" },
  MaxFriendsReached: { code: 30002, status: 400, message: "Maximum number of friends reached (1000)" },
  MaxPinsReached: { code: 30003, status: 400, message: "Maximum number of pins reached (50)" },
  MaxRolesReached: { code: 30005, status: 400, message: "Maximum number of guild roles reached (250)" },
  MaxWebhooksReached: { code: 30007, status: 400, message: "Maximum number of webhooks reached" },
  MaxEmojisReached: { code: 30008, status: 400, message: "Maximum number of emojis reached" },
  MaxReactionsReached: { code: 30010, status: 400, message: "Maximum number of reactions reached (20)" },
  MaxChannelsReached: { code: 30013, status: 400, message: "Maximum number of guild channels reached (500)" },
  MaxInvitesReached: { code: 30016, status: 400, message: "Maximum number of invites reached (1000)" },
  MaxApplicationsReached: { code: 30032, status: 400, message: "Maximum number of applications reached (25)" },
  MaxStickersReached: { code: 30039, status: 400, message: "Maximum number of stickers reached (5)" },

  // 40xxx: account and request state
  Unauthorized: { code: 40001, status: 401, message: "Unauthorized" },
  VerificationRequired: { code: 40002, status: 403, message: "You need to verify your account" },
  RequestEntityTooLarge: { code: 40005, status: 413, message: "Request entity too large" },
  FeatureDisabled: { code: 40006, status: 403, message: "This feature has been temporarily disabled" },
  /** Server ban, and the platform-wide account block (then the message states reason and term). */
  Banned: { code: 40007, status: 403, message: "The user is banned from this guild" },
  /** 40032 on moderation actions (mute, move). */
  TargetNotInVoice: { code: 40032, status: 400, message: "Target user is not connected to voice" },
  /** 40032 when reading a voice state that does not exist (GET /users/@me/voice). */
  VoiceStateNotFound: { code: 40032, status: 404, message: "Target user is not connected to voice" },

  // 50xxx: access and validation
  MissingAccess: { code: 50001, status: 403, message: "Missing Access" },
  InvalidAccountType: { code: 50002, status: 403, message: "Invalid account type" },
  CannotExecuteOnDmChannel: { code: 50003, status: 403, message: "Cannot execute action on a DM channel" },
  CannotEditOthersMessage: { code: 50005, status: 403, message: "Cannot edit a message authored by another user" },
  CannotSendEmptyMessage: { code: 50006, status: 400, message: "Cannot send an empty message" },
  CannotSendMessagesToUser: { code: 50007, status: 403, message: "Cannot send messages to this user" },
  MissingPermissions: { code: 50013, status: 403, message: "Missing Permissions" },
  InvalidAuthenticationToken: { code: 50014, status: 401, message: "Invalid authentication token" },
  InvalidChannelType: { code: 50024, status: 400, message: "Cannot execute action on this channel type" },
  InvalidWebhookToken: { code: 50027, status: 401, message: "Invalid Webhook Token" },
  InvalidRecipients: { code: 50033, status: 400, message: "Invalid Recipient(s)" },
  InvalidFormBody: { code: 50035, status: 400, message: "Invalid Form Body" },
  /** Not in the spec's table: the mirrored platform's answer when an owner tries to leave their guild. */
  InvalidGuild: { code: 50055, status: 400, message: "Invalid Guild" },
  CannotDeleteCommunityChannel: {
    code: 50074,
    status: 400,
    message: "Cannot delete a channel required for Community guilds"
  },
  ThreadArchived: { code: 50083, status: 400, message: "Cannot perform action on archived thread" },
  /** Not in the spec's table; the mirrored platform answers an unparseable JSON body with it. */
  InvalidJson: { code: 50109, status: 400, message: "The request body contains invalid JSON." },

  // 60xxx: two-factor authentication
  /** Not in the spec's table; the mirrored platform's answer to enabling TOTP twice. */
  TwoFactorAlreadyEnabled: { code: 60001, status: 400, message: "Two factor is already enabled" },
  TwoFactorNotEnabled: { code: 60002, status: 400, message: "Two factor is not enabled" },
  /** 60003 at login: the body adds `mfa: true`, which tells clients to ask for a code. */
  TwoFactorRequired: { code: 60003, status: 401, message: "Two factor is required for this operation", mfa: true },
  /** 60003 for an operation that needs 2FA enabled on the account (e.g. creating an application). */
  TwoFactorRequiredForOperation: { code: 60003, status: 403, message: "Two factor is required for this operation" },
  InvalidTwoFactorCode: { code: 60008, status: 401, message: "Invalid two-factor code" },

  // 70xxx: this service's own codes
  PhoneCodeInvalid: { code: 70003, status: 403, message: "Phone verification code invalid or expired" },
  EmailLinkInvalid: { code: 70004, status: 403, message: "Email link invalid or expired" },

  // 160xxx: threads
  ThreadAlreadyCreated: { code: 160004, status: 400, message: "A thread has already been created for this message" },
  MaxActiveThreadsReached: { code: 160006, status: 400, message: "Maximum number of active threads reached (1000)" },

  // 200000: AutoMod (message is the rule text, errors.rule_name names the rule)
  AutoModBlocked: { code: 200000, status: 400, message: "Message was blocked by AutoMod" },

  // code 0: general answers for a bare HTTP status (the table's "General error" row), and the
  // route-specific statuses the spec names without a code
  Forbidden: { code: 0, status: 403, message: "403: Forbidden" },
  NotFound: { code: 0, status: 404, message: "404: Not Found" },
  MethodNotAllowed: { code: 0, status: 405, message: "405: Method Not Allowed" },
  Conflict: { code: 0, status: 409, message: "409: Conflict" },
  UnsupportedMediaType: { code: 0, status: 415, message: "415: Unsupported Media Type" },
  InternalServerError: { code: 0, status: 500, message: "500: Internal Server Error" },
  NotImplemented: { code: 0, status: 501, message: "501: Not Implemented" },
  BadGateway: { code: 0, status: 502, message: "502: Bad Gateway" },
  ServiceUnavailable: { code: 0, status: 503, message: "503: Service Unavailable" }
} as const satisfies Record<string, Entry>

/** The name of a catalogue entry; each error class carries the same name. */
export type Name = keyof typeof entries

/** The exact (literal) entry of one name. */
export type EntryOf<N extends Name> = (typeof entries)[N]

/** Every entry name, in catalogue order. */
export const names: ReadonlyArray<Name> = Object.keys(entries).filter((key): key is Name => key in entries)

/** The entry of a name, typed as a plain `Entry` (for code that handles any entry alike). */
export const get = (name: Name): Entry => entries[name]
