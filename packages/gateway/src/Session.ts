/**
 * One gateway session as this node keeps it: who it is, what it asked for, its sequence number,
 * the dispatches it was sent (for a resume) and the socket it is attached to, if any. Writing is
 * synchronous on purpose: the fan-out writes each dispatch to each socket directly, in order, with
 * no fiber or queue per socket.
 */
import type { Snowflake } from "@veche/platform"
import * as Frames from "./Frames.ts"
import type { Credential } from "./GatewayIdentity.ts"

/** Where a session's frames go: the socket it is attached to. */
export interface Sink {
  readonly send: (text: string) => void
  /**
   * One dispatch numbered `seq`: the same frame as `send(Frames.dispatchText(parts, seq))`, which a
   * sink that can write it as shared, ready-made bytes does (see WireFrames). Absent: `send`.
   */
  readonly dispatch?: ((parts: Frames.DispatchText, seq: number) => void) | undefined
  readonly close: (code: number, reason: string) => void
}

export interface Session {
  readonly id: string
  readonly userId: Snowflake.Snowflake
  readonly bot: boolean
  readonly intents: number
  /** Whether MESSAGE_CREATE/UPDATE arrive with their content (see MessageContent). */
  readonly readsContent: boolean
  readonly shard: readonly [number, number]
  readonly largeThreshold: number
  /**
   * What its IDENTIFY's token proved (a login session, a bot's token): a RESUME must carry a token
   * proving the same, so a session whose credential was revoked cannot be taken up with another.
   */
  readonly credential: Credential | undefined
  /** The guilds whose dispatches this session receives (in its shard, for a bot). */
  readonly guildIds: Set<string>
  seq: number
  /**
   * The last dispatches sent, for a resume: a ring of up to `replayLimit`, grown as they come (not
   * allocated up front), the newest at `replayEnd - 1`. Sequence numbers are consecutive, so an
   * entry's is implied by its place; entries are the shared serialised parts, the same object for
   * every session a dispatch went to (one pointer each, not a copy of the frame per session).
   */
  readonly replay: Array<Frames.DispatchText>
  /** Where the next entry goes once the ring is full (the oldest entry's index). */
  replayEnd: number
  readonly replayLimit: number
  sink: Sink | undefined
  /** While READY and its GUILD_CREATEs are being built, live dispatches wait here in order. */
  pending: Array<Frames.DispatchText> | undefined
  /** When its socket dropped (undefined while attached). */
  detachedAt: number | undefined
}

export const make = (fields: {
  readonly id: string
  readonly userId: Snowflake.Snowflake
  readonly bot: boolean
  readonly intents: number
  readonly readsContent: boolean
  readonly shard: readonly [number, number]
  readonly largeThreshold: number
  readonly replayLimit: number
  readonly sink: Sink
  readonly credential?: Credential | undefined
}): Session => ({
  ...fields,
  credential: fields.credential,
  guildIds: new Set(),
  seq: 0,
  replay: [],
  replayEnd: 0,
  pending: [],
  detachedAt: undefined
})

/** Sends one dispatch now: the next sequence number, kept for replay, written if attached. */
export const emit = (session: Session, parts: Frames.DispatchText): void => {
  session.seq += 1
  keep(session, parts)
  write(session, parts)
}

const write = (session: Session, parts: Frames.DispatchText): void => {
  const sink = session.sink
  if (sink === undefined) return
  if (sink.dispatch !== undefined) sink.dispatch(parts, session.seq)
  else sink.send(Frames.dispatchText(parts, session.seq))
}

/**
 * READY and its GUILD_CREATEs: numbered and sent, not kept for a resume. They are the one burst of a
 * session's own state (kilobytes each, per session); a client resuming from before their end has
 * not got its state and gets op 9 to identify afresh, which is what it needs anyway.
 */
export const emitWithoutReplay = (session: Session, parts: Frames.DispatchText): void => {
  session.seq += 1
  // the ring holds consecutive numbers: what it held before this frame cannot be replayed past it
  session.replay.length = 0
  session.replayEnd = 0
  // one session's own state, not shared: as text (framing it here would only copy it once more)
  session.sink?.send(Frames.dispatchText(parts, session.seq))
}

const keep = (session: Session, parts: Frames.DispatchText): void => {
  const replay = session.replay
  if (replay.length < session.replayLimit) {
    replay.push(parts)
    return
  }
  if (replay.length === 0) return
  replay[session.replayEnd] = parts
  session.replayEnd = (session.replayEnd + 1) % replay.length
}

/** A live dispatch: now, or after READY when the session is still starting. */
export const deliver = (session: Session, parts: Frames.DispatchText): void => {
  if (session.pending !== undefined) session.pending.push(parts)
  else emit(session, parts)
}

/** READY and its guilds are out: what arrived meanwhile follows them. */
export const started = (session: Session): void => {
  const pending = session.pending ?? []
  session.pending = undefined
  for (const parts of pending) emit(session, parts)
}

/** The frames a client that saw `seq` missed, or undefined when some of them are no longer kept. */
export const missedAfter = (session: Session, seq: number | null): ReadonlyArray<string> | undefined => {
  const seen = seq ?? 0
  if (seen > session.seq || seen < 0) return undefined
  if (seen === session.seq) return []
  const replay = session.replay
  const kept = replay.length
  // the oldest kept entry is seq - kept + 1
  if (session.seq - seen > kept) return undefined
  const missed: Array<string> = []
  for (let seq = seen + 1; seq <= session.seq; seq++) {
    // the ring's oldest entry sits at replayEnd (0 until it is full)
    const at = (session.replayEnd + kept - (session.seq - seq) - 1) % kept
    const parts = replay[at]
    // an earlier resume's RESUMED is not news: kept only so that the ring's numbers stay consecutive
    if (parts !== undefined && parts !== Frames.RESUMED) missed.push(Frames.dispatchText(parts, seq))
  }
  return missed
}

/** Whether a bot's shard carries this guild (the platform's `(guild_id >> 22) % num_shards`). */
export const inShard = (shard: readonly [number, number], guildId: string): boolean =>
  shard[1] <= 1 || Number((BigInt(guildId) >> 22n) % BigInt(shard[1])) === shard[0]
