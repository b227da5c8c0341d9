/**
 * One connection's protocol state as a pure state machine: frames in, actions out, time given by
 * the caller. It decides what the protocol alone decides (heartbeats and their deadline, the
 * command rate limit, which opcode is allowed when, decode errors and their close codes), and hands
 * IDENTIFY and RESUME to the connection, which answers with `identified`/`resumed` or a close.
 */
import * as CloseCodes from "./CloseCodes.ts"
import * as Frames from "./Frames.ts"

/** The platform's limit: 120 commands per 60 s per connection, then close 4008. */
export const COMMAND_LIMIT = 120
export const COMMAND_WINDOW_MS = 60_000
/**
 * op 3 has its own, tighter budget within that one: 5 presence updates per 60 s per connection
 * (the platform's documented limit of old, kept by client libraries); the ones past it are dropped
 * without a word (they still count as commands), not closed on.
 */
export const PRESENCE_LIMIT = 5
export const PRESENCE_WINDOW_MS = 60_000

export type Phase =
  /** HELLO sent: only heartbeats, IDENTIFY and RESUME are allowed. */
  | "AwaitingIdentify"
  /** IDENTIFY or RESUME being checked: a second one is refused (4005). */
  | "Identifying"
  | "Ready"
  | "Closed"

export interface State {
  readonly phase: Phase
  readonly heartbeatIntervalMs: number
  /** When the last heartbeat arrived (HELLO counts as one). */
  readonly lastHeartbeatAt: number
  /** The server sent op 1 and waits for the answer. */
  readonly heartbeatRequestedAt: number | null
  readonly windowStartedAt: number
  readonly commandsInWindow: number
  readonly presenceWindowStartedAt: number
  readonly presencesInWindow: number
}

export type Action =
  | { readonly _tag: "Send"; readonly text: string }
  | { readonly _tag: "Close"; readonly code: CloseCodes.CloseCode }
  | { readonly _tag: "Identify"; readonly data: Frames.IdentifyData }
  | { readonly _tag: "Resume"; readonly data: Frames.ResumeData }
  | { readonly _tag: "PresenceUpdate"; readonly data: Frames.PresenceData }
  | { readonly _tag: "RequestGuildMembers"; readonly data: Frames.RequestGuildMembersData }

export type Step = readonly [State, ReadonlyArray<Action>]

/** A new connection: HELLO goes out at `now`. */
export const start = (now: number, heartbeatIntervalMs: number): Step => [
  {
    phase: "AwaitingIdentify",
    heartbeatIntervalMs,
    lastHeartbeatAt: now,
    heartbeatRequestedAt: null,
    windowStartedAt: now,
    commandsInWindow: 0,
    presenceWindowStartedAt: now,
    presencesInWindow: 0
  },
  [{ _tag: "Send", text: Frames.hello(heartbeatIntervalMs) }]
]

const close = (state: State, code: CloseCodes.CloseCode): Step => [
  { ...state, phase: "Closed" },
  [{ _tag: "Close", code }]
]

/** One text frame from the client at `now`. */
export const receive = (state: State, text: string, now: number): Step => {
  if (state.phase === "Closed") return [state, []]
  const fresh = now - state.windowStartedAt >= COMMAND_WINDOW_MS
  const counted: State = {
    ...state,
    windowStartedAt: fresh ? now : state.windowStartedAt,
    commandsInWindow: (fresh ? 0 : state.commandsInWindow) + 1
  }
  if (counted.commandsInWindow > COMMAND_LIMIT) return close(counted, CloseCodes.RATE_LIMITED)
  const decoded = Frames.decode(text)
  if (decoded._tag === "DecodeError") return close(counted, CloseCodes.DECODE_ERROR)
  if (decoded._tag === "UnknownOpcode") return close(counted, CloseCodes.UNKNOWN_OPCODE)
  const command = decoded.command
  switch (command._tag) {
    case "Heartbeat":
      return [
        { ...counted, lastHeartbeatAt: now, heartbeatRequestedAt: null },
        [{ _tag: "Send", text: Frames.HEARTBEAT_ACK }]
      ]
    case "Identify":
    case "Resume":
      if (counted.phase !== "AwaitingIdentify") return close(counted, CloseCodes.ALREADY_AUTHENTICATED)
      return [
        { ...counted, phase: "Identifying" },
        [
          command._tag === "Identify"
            ? { _tag: "Identify", data: command.data }
            : { _tag: "Resume", data: command.data }
        ]
      ]
    case "PresenceUpdate": {
      if (counted.phase !== "Ready") return close(counted, CloseCodes.NOT_AUTHENTICATED)
      const freshPresence = now - counted.presenceWindowStartedAt >= PRESENCE_WINDOW_MS
      const presenceCounted: State = {
        ...counted,
        presenceWindowStartedAt: freshPresence ? now : counted.presenceWindowStartedAt,
        presencesInWindow: (freshPresence ? 0 : counted.presencesInWindow) + 1
      }
      if (presenceCounted.presencesInWindow > PRESENCE_LIMIT) return [presenceCounted, []]
      return [presenceCounted, [{ _tag: "PresenceUpdate", data: command.data }]]
    }
    case "RequestGuildMembers":
      if (counted.phase !== "Ready") return close(counted, CloseCodes.NOT_AUTHENTICATED)
      return [counted, [{ _tag: "RequestGuildMembers", data: command.data }]]
    case "VoiceStateUpdate":
      if (counted.phase !== "Ready") return close(counted, CloseCodes.NOT_AUTHENTICATED)
      return [counted, []]
  }
}

/** IDENTIFY or RESUME succeeded: dispatches may flow. */
export const ready = (state: State): State => (state.phase === "Identifying" ? { ...state, phase: "Ready" } : state)

/**
 * An IDENTIFY that may be retried (op 9 `d: false`, e.g. the identify budget was spent): back to
 * waiting for one, as the client will send another on the same connection.
 */
export const retryIdentify = (state: State): State =>
  state.phase === "Identifying" ? { ...state, phase: "AwaitingIdentify" } : state

/** A close the connection decided on (bad token, intents, shutdown). */
export const closeWith = (state: State, code: CloseCodes.CloseCode): Step =>
  state.phase === "Closed" ? [state, []] : close(state, code)

/**
 * When `tick` next has something to decide: half an interval after a heartbeat was due it asks for
 * one (op 1), and half an interval after that, still without one, it closes with 4009.
 */
export const nextCheckAt = (state: State): number =>
  state.heartbeatRequestedAt === null
    ? state.lastHeartbeatAt + state.heartbeatIntervalMs * 1.5
    : state.heartbeatRequestedAt + state.heartbeatIntervalMs * 0.5

/** Time passed: ask for a missed heartbeat, or close a connection that stayed silent after the ask. */
export const tick = (state: State, now: number): Step => {
  if (state.phase === "Closed" || now < nextCheckAt(state)) return [state, []]
  if (state.heartbeatRequestedAt === null)
    return [{ ...state, heartbeatRequestedAt: now }, [{ _tag: "Send", text: Frames.HEARTBEAT_REQUEST }]]
  return close(state, CloseCodes.SESSION_TIMED_OUT)
}
