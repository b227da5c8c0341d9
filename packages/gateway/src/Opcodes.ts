/** The gateway's opcodes, as the mirrored platform numbers them (v10). */

/** A dispatched event (server → client), with `s` and `t`. */
export const DISPATCH = 0
/** Heartbeat: the client's, carrying its last `s`; or the server asking for one at once. */
export const HEARTBEAT = 1
export const IDENTIFY = 2
export const PRESENCE_UPDATE = 3
export const VOICE_STATE_UPDATE = 4
export const RESUME = 6
/** The server asks the client to reconnect and resume (sent to every session on shutdown). */
export const RECONNECT = 7
export const REQUEST_GUILD_MEMBERS = 8
/** The session cannot be resumed (`d: false`) or identified now; the client identifies again. */
export const INVALID_SESSION = 9
export const HELLO = 10
export const HEARTBEAT_ACK = 11

/** What a client may send. */
export const CLIENT_OPCODES: ReadonlySet<number> = new Set([
  HEARTBEAT,
  IDENTIFY,
  PRESENCE_UPDATE,
  VOICE_STATE_UPDATE,
  RESUME,
  REQUEST_GUILD_MEMBERS
])
