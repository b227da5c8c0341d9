/**
 * The frames that tell a session a channel came into or went out of its sight (ChannelViews'
 * `refresh`): CHANNEL_CREATE and CHANNEL_DELETE, as the platform sends them when overwrites, roles
 * or a member's roles change. Each channel's frame is serialised once per dispatch, whoever needs it.
 */
import type { Dispatch } from "@veche/platform"
import type { Shift } from "./ChannelViews.ts"
import * as Frames from "./Frames.ts"

export interface ChannelShifts {
  /**
   * What a channel event tells one session about its own channel, from whether the session saw the
   * channel before and sees it after (both from the reloaded rules, not the payload: a payload may be
   * older than the rules when changes pile up, and only the rules keep what was told consistent
   * with what is compared next): created, updated, deleted, or nothing.
   */
  readonly own: (saw: boolean, sees: boolean) => Frames.DispatchText | undefined
  /** The frames for one user's shift: creates first, then deletes. */
  readonly frames: (shift: Shift) => ReadonlyArray<Frames.DispatchText>
}

export const make = (dispatch: Dispatch.Dispatch, parts: Frames.DispatchText): ChannelShifts => {
  const cache = new Map<string, Frames.DispatchText>()
  const frame = (name: "CHANNEL_CREATE" | "CHANNEL_DELETE", id: string, wire: unknown) => {
    const key = `${name}:${id}`
    let text = cache.get(key)
    if (text === undefined) {
      text = Frames.dispatchParts(name, JSON.stringify(wire))
      cache.set(key, text)
    }
    return text
  }
  // the dispatch's own payload under each name, serialised only when a session needs it
  const named = new Map<string, Frames.DispatchText>([[dispatch.type, parts]])
  const as = (name: "CHANNEL_CREATE" | "CHANNEL_UPDATE" | "CHANNEL_DELETE") => {
    let text = named.get(name)
    if (text === undefined) {
      text = Frames.dispatchParts(name, JSON.stringify(dispatch.data))
      named.set(name, text)
    }
    return text
  }
  return {
    own: (saw, sees) => {
      // a deleted channel is gone for whoever saw it
      if (dispatch.type === "CHANNEL_DELETE") return saw ? parts : undefined
      if (sees) return as(saw ? "CHANNEL_UPDATE" : "CHANNEL_CREATE")
      return saw ? as("CHANNEL_DELETE") : undefined
    },
    frames: (shift) => [
      ...shift.shown.map((channel) => frame("CHANNEL_CREATE", channel.id, channel.wire)),
      ...shift.hidden.map((channel) => frame("CHANNEL_DELETE", channel.id, channel.wire))
    ]
  }
}
