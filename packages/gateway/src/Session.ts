/**
 * One gateway session as this node keeps it: who it is, what it asked for, its sequence number,
 * the dispatches it was sent (for a resume) and the socket it is attached to, if any. Writing is
 * synchronous on purpose: the fan-out writes each dispatch to each socket directly, in order, with
 * no fiber or queue per socket.
 */
import type { Snowflake } from "@veche/platform"
import * as Frames from "./Frames.ts"

/** Where a session's frames go: the socket it is attached to. */
export interface Sink {
  readonly send: (text: string) => void
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
  /** The guilds whose dispatches this session receives (in its shard, for a bot). */
  readonly guildIds: Set<string>
  seq: number
  /** The last dispatches sent, oldest first, for a resume. */
  readonly replay: Array<{ readonly seq: number; readonly text: string }>
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
}): Session => ({
  ...fields,
  guildIds: new Set(),
  seq: 0,
  replay: [],
  pending: [],
  detachedAt: undefined
})

/** Sends one dispatch now: the next sequence number, kept for replay, written if attached. */
export const emit = (session: Session, parts: Frames.DispatchText): void => {
  session.seq += 1
  const text = Frames.dispatchText(parts, session.seq)
  session.replay.push({ seq: session.seq, text })
  if (session.replay.length > session.replayLimit) session.replay.splice(0, session.replay.length - session.replayLimit)
  session.sink?.send(text)
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
  const oldest = session.replay[0]?.seq
  if (oldest === undefined || oldest > seen + 1) return undefined
  return session.replay.filter((entry) => entry.seq > seen).map((entry) => entry.text)
}

/** Whether a bot's shard carries this guild (the platform's `(guild_id >> 22) % num_shards`). */
export const inShard = (shard: readonly [number, number], guildId: string): boolean =>
  shard[1] <= 1 || Number((BigInt(guildId) >> 22n) % BigInt(shard[1])) === shard[0]
