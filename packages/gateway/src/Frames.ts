/**
 * Gateway frames as Schema: what a client may send (by opcode, each `d` decoded on its own so a bad
 * field is a decode error, close 4002, while an unknown opcode is 4001), and the text of what the
 * server sends. Outgoing frames are built as strings: a dispatch's payload is serialised once and
 * shared by every session it goes to, only `s` differing (see `dispatchText`).
 */
import { Schema } from "effect"
import * as Opcodes from "./Opcodes.ts"

/** The largest frame a client may send (the platform's limit, 4096 bytes); larger is a decode error. */
export const MAX_INBOUND_LENGTH = 4096
/**
 * The largest frame the host's socket takes in, in bytes: 4096 characters of UTF-8 at 3 bytes each
 * (so every frame `decode` would judge still reaches it, and gets 4002 past 4096 characters). Past
 * this the host closes with 1009 before buffering more: its default (ws: 100 MiB) let anyone, signed
 * in or not, make the server hold that much per connection.
 */
export const MAX_INBOUND_BYTES = MAX_INBOUND_LENGTH * 3

const Int = Schema.Int

/** Every client frame's envelope: `op` and `d` (`s` and `t` are the server's and ignored). */
export const Envelope = Schema.Struct({ op: Int, d: Schema.optionalKey(Schema.Unknown) })
export type Envelope = typeof Envelope.Type

export const decodeEnvelope = Schema.decodeUnknownExit(Schema.fromJsonString(Envelope))

/** op 1: the last sequence number the client received, or null. */
export const HeartbeatData = Schema.NullOr(Int)

export const IdentifyProperties = Schema.Struct({
  os: Schema.optionalKey(Schema.String),
  browser: Schema.optionalKey(Schema.String),
  device: Schema.optionalKey(Schema.String)
})

/** The activity types a client may set: playing, streaming, listening, watching, custom, competing. */
export const ACTIVITY_TYPES: ReadonlySet<number> = new Set([0, 1, 2, 3, 4, 5])
export const ACTIVITY_STREAMING = 1
export const MAX_ACTIVITY_TEXT = 128
/** Where a streaming activity may point (as on the platform): Twitch and YouTube, over https. */
const STREAM_URL = /^https:\/\/(www\.)?(twitch\.tv|youtube\.com)\/\S*$/

/** A control character (C0, NUL among them, or DEL): never shown to others. */
const hasControl = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** Shown to others as given: 1..128 characters, no control characters. */
const shownText = (text: string): boolean => text.length >= 1 && text.length <= MAX_ACTIVITY_TEXT && !hasControl(text)

/**
 * One activity as a client sets it, checked as the platform does before guildmates see it: a known
 * type, a short printable name (and state), a URL only on a stream and only to Twitch or YouTube.
 */
export const Activity = Schema.Struct({
  name: Schema.String,
  type: Int,
  state: Schema.optionalKey(Schema.NullOr(Schema.String)),
  url: Schema.optionalKey(Schema.NullOr(Schema.String))
}).pipe(
  Schema.check(
    Schema.makeFilter(
      (activity: {
        readonly name: string
        readonly type: number
        readonly state?: string | null
        readonly url?: string | null
      }) =>
        ACTIVITY_TYPES.has(activity.type) &&
        shownText(activity.name) &&
        (activity.state === undefined || activity.state === null || shownText(activity.state)) &&
        (activity.url === undefined ||
          activity.url === null ||
          (activity.type === ACTIVITY_STREAMING && STREAM_URL.test(activity.url) && !hasControl(activity.url))),
      { message: "Invalid activity." }
    )
  )
)

/** op 3, and IDENTIFY's `presence`. */
export const PresenceData = Schema.Struct({
  since: Schema.NullOr(Int),
  activities: Schema.Array(Activity),
  status: Schema.Literals(["online", "dnd", "idle", "invisible", "offline"]),
  afk: Schema.Boolean
})
export type PresenceData = typeof PresenceData.Type

/** op 2. `intents` is required of bots (absent: close 4013); a user's session may leave it out. */
export const IdentifyData = Schema.Struct({
  token: Schema.String,
  properties: IdentifyProperties,
  compress: Schema.optionalKey(Schema.Boolean),
  large_threshold: Schema.optionalKey(Int.check(Schema.isBetween({ minimum: 50, maximum: 250 }))),
  shard: Schema.optionalKey(Schema.Tuple([Int, Int])),
  presence: Schema.optionalKey(PresenceData),
  // any JSON number here: a fraction or a value past the defined bits is an intents error (4013), not a decode error
  intents: Schema.optionalKey(Schema.Number)
})
export type IdentifyData = typeof IdentifyData.Type

/** op 6. */
export const ResumeData = Schema.Struct({
  token: Schema.String,
  session_id: Schema.String,
  seq: Schema.NullOr(Int)
})
export type ResumeData = typeof ResumeData.Type

/** op 8: answered with GUILD_MEMBERS_CHUNKs (see MemberRequests). */
export const RequestGuildMembersData = Schema.Struct({
  guild_id: Schema.Union([Schema.String, Schema.Array(Schema.String)]),
  query: Schema.optionalKey(Schema.String),
  limit: Schema.optionalKey(Int),
  presences: Schema.optionalKey(Schema.Boolean),
  user_ids: Schema.optionalKey(Schema.Union([Schema.String, Schema.Array(Schema.String)])),
  nonce: Schema.optionalKey(Schema.String)
})
export type RequestGuildMembersData = typeof RequestGuildMembersData.Type

/** op 4 (no voice here: checked and ignored). */
export const VoiceStateData = Schema.Struct({
  guild_id: Schema.String,
  channel_id: Schema.NullOr(Schema.String),
  self_mute: Schema.Boolean,
  self_deaf: Schema.Boolean
})

/** A client frame after its `d` is decoded. */
export type Command =
  | { readonly _tag: "Heartbeat"; readonly seq: number | null }
  | { readonly _tag: "Identify"; readonly data: IdentifyData }
  | { readonly _tag: "PresenceUpdate"; readonly data: PresenceData }
  | { readonly _tag: "VoiceStateUpdate" }
  | { readonly _tag: "Resume"; readonly data: ResumeData }
  | { readonly _tag: "RequestGuildMembers"; readonly data: RequestGuildMembersData }

export type Decoded =
  | { readonly _tag: "Command"; readonly command: Command }
  | { readonly _tag: "DecodeError" }
  | { readonly _tag: "UnknownOpcode" }

const decodeHeartbeat = Schema.decodeUnknownExit(HeartbeatData)
const decodeIdentify = Schema.decodeUnknownExit(IdentifyData)
const decodePresence = Schema.decodeUnknownExit(PresenceData)
const decodeVoice = Schema.decodeUnknownExit(VoiceStateData)
const decodeResume = Schema.decodeUnknownExit(ResumeData)
const decodeRequestMembers = Schema.decodeUnknownExit(RequestGuildMembersData)

const DECODE_ERROR: Decoded = { _tag: "DecodeError" }
const command = (c: Command): Decoded => ({ _tag: "Command", command: c })

/** One text frame from a client. */
export const decode = (text: string): Decoded => {
  if (text.length > MAX_INBOUND_LENGTH) return DECODE_ERROR
  const envelope = decodeEnvelope(text)
  if (envelope._tag === "Failure") return DECODE_ERROR
  const { op, d } = envelope.value
  switch (op) {
    case Opcodes.HEARTBEAT: {
      // `{"op":1}` without d is what some clients send first: the same as null
      const seq = decodeHeartbeat(d === undefined ? null : d)
      return seq._tag === "Success" ? command({ _tag: "Heartbeat", seq: seq.value }) : DECODE_ERROR
    }
    case Opcodes.IDENTIFY: {
      const data = decodeIdentify(d)
      return data._tag === "Success" ? command({ _tag: "Identify", data: data.value }) : DECODE_ERROR
    }
    case Opcodes.PRESENCE_UPDATE: {
      const data = decodePresence(d)
      return data._tag === "Success" ? command({ _tag: "PresenceUpdate", data: data.value }) : DECODE_ERROR
    }
    case Opcodes.VOICE_STATE_UPDATE:
      return decodeVoice(d)._tag === "Success" ? command({ _tag: "VoiceStateUpdate" }) : DECODE_ERROR
    case Opcodes.RESUME: {
      const data = decodeResume(d)
      return data._tag === "Success" ? command({ _tag: "Resume", data: data.value }) : DECODE_ERROR
    }
    case Opcodes.REQUEST_GUILD_MEMBERS: {
      const data = decodeRequestMembers(d)
      return data._tag === "Success" ? command({ _tag: "RequestGuildMembers", data: data.value }) : DECODE_ERROR
    }
    default:
      return { _tag: "UnknownOpcode" }
  }
}

// ---------------------------------------------------------------------------------------------
// Server frames

export const hello = (heartbeatIntervalMs: number): string =>
  JSON.stringify({ op: Opcodes.HELLO, d: { heartbeat_interval: heartbeatIntervalMs }, s: null, t: null })

export const HEARTBEAT_ACK = JSON.stringify({ op: Opcodes.HEARTBEAT_ACK, d: null, s: null, t: null })
/** The server asks for a heartbeat now. */
export const HEARTBEAT_REQUEST = JSON.stringify({ op: Opcodes.HEARTBEAT, d: null, s: null, t: null })
export const RECONNECT = JSON.stringify({ op: Opcodes.RECONNECT, d: null, s: null, t: null })

export const invalidSession = (resumable: boolean): string =>
  JSON.stringify({ op: Opcodes.INVALID_SESSION, d: resumable, s: null, t: null })

/**
 * A dispatch serialised once for every session it goes to: the text around the sequence number.
 * `name` is one of the platform's dispatch names (capitals and underscores), safe inside quotes.
 */
export interface DispatchText {
  readonly head: string
  readonly tail: string
}

export const dispatchParts = (name: string, payloadJson: string): DispatchText => ({
  head: `{"op":0,"t":"${name}","s":`,
  tail: `,"d":${payloadJson}}`
})

export const dispatchText = (parts: DispatchText, seq: number): string => `${parts.head}${seq}${parts.tail}`

/** RESUMED, one object for all: numbered and kept like any dispatch, never replayed (see `Session.missedAfter`). */
export const RESUMED: DispatchText = dispatchParts("RESUMED", "{}")
