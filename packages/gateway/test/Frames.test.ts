/** Client frames as decoded: the presence activities a client may set (op 3, IDENTIFY's presence). */
import { describe, expect, it } from "@effect/vitest"
import * as Frames from "../src/Frames.ts"

const presence = (activity: Record<string, unknown>) =>
  Frames.decode(JSON.stringify({ op: 3, d: { since: null, activities: [activity], status: "online", afk: false } }))
const accepted = (activity: Record<string, unknown>) => presence(activity)._tag === "Command"

describe("presence activities", () => {
  it("takes the platform's activities: a game, a stream to Twitch or YouTube, a custom status", () => {
    expect(accepted({ name: "Chess", type: 0 })).toBe(true)
    expect(accepted({ name: "Live", type: 1, url: "https://twitch.tv/someone" })).toBe(true)
    expect(accepted({ name: "Live", type: 1, url: "https://www.youtube.com/watch?v=abc" })).toBe(true)
    expect(accepted({ name: "Custom Status", type: 4, state: "busy" })).toBe(true)
    expect(accepted({ name: "Tunes", type: 2, url: null, state: null })).toBe(true)
    expect(accepted({ name: "a".repeat(128), type: 5 })).toBe(true)
  })

  it("refuses unknown types, long or control-character text, and URLs other than a stream's", () => {
    expect(presence({ name: "x", type: 999 })).toEqual({ _tag: "DecodeError" })
    expect(accepted({ name: "x", type: -5 })).toBe(false)
    expect(accepted({ name: "x", type: 6 })).toBe(false)
    expect(accepted({ name: "", type: 0 })).toBe(false)
    expect(accepted({ name: "a".repeat(129), type: 0 })).toBe(false)
    expect(accepted({ name: `x\u0000y${"A".repeat(300)}`, type: 0 })).toBe(false)
    expect(accepted({ name: "x\u0000y", type: 0 })).toBe(false)
    expect(accepted({ name: "Custom Status", type: 4, state: "s".repeat(129) })).toBe(false)
    expect(accepted({ name: "Custom Status", type: 4, state: "a\u0000" })).toBe(false)
    expect(accepted({ name: "Live", type: 1, url: "javascript:alert(1)" })).toBe(false)
    expect(accepted({ name: "Live", type: 1, url: "http://twitch.tv/someone" })).toBe(false)
    expect(accepted({ name: "Live", type: 1, url: "https://twitch.tv.evil.example/x" })).toBe(false)
    expect(accepted({ name: "Chess", type: 0, url: "https://twitch.tv/someone" })).toBe(false)
  })

  it("checks IDENTIFY's presence the same way", () => {
    const identify = (type: number) =>
      Frames.decode(
        JSON.stringify({
          op: 2,
          d: {
            token: "t",
            properties: {},
            presence: { since: null, activities: [{ name: "x", type }], status: "online", afk: false }
          }
        })
      )._tag
    expect(identify(0)).toBe("Command")
    expect(identify(999)).toBe("DecodeError")
  })
})
