/**
 * The frames that tell a session a channel came into or went out of its sight (ChannelViews'
 * `refresh`): CHANNEL_CREATE and CHANNEL_DELETE, as the platform sends them when overwrites, roles
 * or a member's roles change. Each channel's frame is serialised once per dispatch, whoever needs it.
 */
import type { Dispatch } from "@veche/platform"
import type { Shift } from "./ChannelViews.ts"
import * as Frames from "./Frames.ts"

export interface ChannelShifts {
  /** A CHANNEL_UPDATE's own payload, as CHANNEL_CREATE (it became visible) or CHANNEL_DELETE (invisible). */
  readonly created: Frames.DispatchText
  readonly deleted: Frames.DispatchText
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
  let created: Frames.DispatchText | undefined
  let deleted: Frames.DispatchText | undefined
  const body = () => JSON.stringify(dispatch.data)
  return {
    get created() {
      if (created === undefined)
        created = dispatch.type === "CHANNEL_CREATE" ? parts : Frames.dispatchParts("CHANNEL_CREATE", body())
      return created
    },
    get deleted() {
      if (deleted === undefined)
        deleted = dispatch.type === "CHANNEL_DELETE" ? parts : Frames.dispatchParts("CHANNEL_DELETE", body())
      return deleted
    },
    frames: (shift) => [
      ...shift.shown.map((channel) => frame("CHANNEL_CREATE", channel.id, channel.wire)),
      ...shift.hidden.map((channel) => frame("CHANNEL_DELETE", channel.id, channel.wire))
    ]
  }
}
