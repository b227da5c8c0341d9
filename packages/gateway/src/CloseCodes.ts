/**
 * Close codes 4000–4014 as the mirrored platform sends them, each with its reason text, and
 * whether a client may resume after it (the libraries decide from the code alone).
 */

export const UNKNOWN_ERROR = 4000
export const UNKNOWN_OPCODE = 4001
export const DECODE_ERROR = 4002
export const NOT_AUTHENTICATED = 4003
export const AUTHENTICATION_FAILED = 4004
export const ALREADY_AUTHENTICATED = 4005
export const INVALID_SEQ = 4007
export const RATE_LIMITED = 4008
export const SESSION_TIMED_OUT = 4009
export const INVALID_SHARD = 4010
export const SHARDING_REQUIRED = 4011
export const INVALID_API_VERSION = 4012
export const INVALID_INTENTS = 4013
export const DISALLOWED_INTENTS = 4014

export type CloseCode =
  | typeof UNKNOWN_ERROR
  | typeof UNKNOWN_OPCODE
  | typeof DECODE_ERROR
  | typeof NOT_AUTHENTICATED
  | typeof AUTHENTICATION_FAILED
  | typeof ALREADY_AUTHENTICATED
  | typeof INVALID_SEQ
  | typeof RATE_LIMITED
  | typeof SESSION_TIMED_OUT
  | typeof INVALID_SHARD
  | typeof SHARDING_REQUIRED
  | typeof INVALID_API_VERSION
  | typeof INVALID_INTENTS
  | typeof DISALLOWED_INTENTS

export const REASONS: { readonly [C in CloseCode]: string } = {
  [UNKNOWN_ERROR]: "Unknown error.",
  [UNKNOWN_OPCODE]: "Unknown opcode.",
  [DECODE_ERROR]: "Decode error.",
  [NOT_AUTHENTICATED]: "Not authenticated.",
  [AUTHENTICATION_FAILED]: "Authentication failed.",
  [ALREADY_AUTHENTICATED]: "Already authenticated.",
  [INVALID_SEQ]: "Invalid seq.",
  [RATE_LIMITED]: "Rate limited.",
  [SESSION_TIMED_OUT]: "Session timed out.",
  [INVALID_SHARD]: "Invalid shard.",
  [SHARDING_REQUIRED]: "Sharding required.",
  [INVALID_API_VERSION]: "Invalid API version.",
  [INVALID_INTENTS]: "Invalid intent(s).",
  [DISALLOWED_INTENTS]: "Disallowed intent(s)."
}

/**
 * After these the session is gone and the client must identify anew (the platform's list of codes
 * that end a session); after the others the session stays resumable on this node for a while.
 */
export const ENDS_SESSION: ReadonlySet<CloseCode> = new Set<CloseCode>([
  AUTHENTICATION_FAILED,
  INVALID_SHARD,
  SHARDING_REQUIRED,
  INVALID_API_VERSION,
  INVALID_INTENTS,
  DISALLOWED_INTENTS
])
