/** The protocol state machine alone: frames and time in, actions out. */
import { describe, expect, it } from "@effect/vitest"
import * as CloseCodes from "../src/CloseCodes.ts"
import * as Intents from "../src/Intents.ts"
import * as Session from "../src/Session.ts"
import * as SessionMachine from "../src/SessionMachine.ts"

const INTERVAL = 40_000
const identify = JSON.stringify({ op: 2, d: { token: "t", properties: {}, intents: 1 } })
const heartbeat = JSON.stringify({ op: 1, d: null })

const closeCode = (step: SessionMachine.Step) =>
  step[1].flatMap((action) => (action._tag === "Close" ? [action.code] : []))

describe("SessionMachine", () => {
  it("starts with HELLO and answers heartbeats with op 11", () => {
    const [state, actions] = SessionMachine.start(0, INTERVAL)
    expect(actions).toEqual([{ _tag: "Send", text: expect.stringContaining('"heartbeat_interval":40000') }])
    const [next, answer] = SessionMachine.receive(state, heartbeat, 1000)
    expect(answer).toEqual([{ _tag: "Send", text: expect.stringContaining('"op":11') }])
    expect(next.lastHeartbeatAt).toBe(1000)
  })

  it("hands IDENTIFY over once; a second is 4005; commands before READY are 4003", () => {
    const [state] = SessionMachine.start(0, INTERVAL)
    const [identifying, actions] = SessionMachine.receive(state, identify, 1)
    expect(actions.map((a) => a._tag)).toEqual(["Identify"])
    expect(closeCode(SessionMachine.receive(identifying, identify, 2))).toEqual([CloseCodes.ALREADY_AUTHENTICATED])
    const presence = JSON.stringify({ op: 3, d: { since: null, activities: [], status: "idle", afk: false } })
    expect(closeCode(SessionMachine.receive(identifying, presence, 2))).toEqual([CloseCodes.NOT_AUTHENTICATED])
    const ready = SessionMachine.ready(identifying)
    expect(SessionMachine.receive(ready, presence, 3)[1].map((a) => a._tag)).toEqual(["PresenceUpdate"])
    // op 9 after a refused identify: another may follow
    expect(SessionMachine.receive(SessionMachine.retryIdentify(identifying), identify, 3)[1][0]?._tag).toBe("Identify")
  })

  it("closes 4002 on bad JSON, bad fields and oversized frames, 4001 on unknown opcodes", () => {
    const [state] = SessionMachine.start(0, INTERVAL)
    expect(closeCode(SessionMachine.receive(state, "{", 1))).toEqual([CloseCodes.DECODE_ERROR])
    expect(closeCode(SessionMachine.receive(state, '{"op":2,"d":{"token":1}}', 1))).toEqual([CloseCodes.DECODE_ERROR])
    expect(closeCode(SessionMachine.receive(state, '{"op":1,"d":"x"}', 1))).toEqual([CloseCodes.DECODE_ERROR])
    expect(closeCode(SessionMachine.receive(state, `{"op":1,"d":null,"x":"${"a".repeat(5000)}"}`, 1))).toEqual([
      CloseCodes.DECODE_ERROR
    ])
    expect(closeCode(SessionMachine.receive(state, '{"op":42,"d":null}', 1))).toEqual([CloseCodes.UNKNOWN_OPCODE])
    // closed: nothing more happens
    const [closed] = SessionMachine.receive(state, "{", 1)
    expect(SessionMachine.receive(closed, heartbeat, 2)[1]).toEqual([])
  })

  it("allows 120 commands per 60 s, closes 4008 on the 121st, and counts afresh in the next window", () => {
    let [state] = SessionMachine.start(0, INTERVAL)
    for (let i = 0; i < 120; i++) {
      const [next, actions] = SessionMachine.receive(state, heartbeat, i)
      expect(closeCode([next, actions])).toEqual([])
      state = next
    }
    expect(closeCode(SessionMachine.receive(state, heartbeat, 500))).toEqual([CloseCodes.RATE_LIMITED])
    expect(closeCode(SessionMachine.receive(state, heartbeat, 60_000))).toEqual([])
  })

  it("passes 5 presence updates per 60 s, drops the rest silently (they still count), and passes again later", () => {
    const presence = JSON.stringify({ op: 3, d: { since: null, activities: [], status: "idle", afk: false } })
    let state = SessionMachine.ready(SessionMachine.receive(SessionMachine.start(0, INTERVAL)[0], identify, 1)[0])
    const tags: Array<string> = []
    for (let i = 0; i < 8; i++) {
      const [next, actions] = SessionMachine.receive(state, presence, 10 + i)
      tags.push(actions.map((a) => a._tag).join(","))
      state = next
    }
    expect(tags).toEqual([
      "PresenceUpdate",
      "PresenceUpdate",
      "PresenceUpdate",
      "PresenceUpdate",
      "PresenceUpdate",
      "",
      "",
      ""
    ])
    expect(state.phase).toBe("Ready")
    expect(state.commandsInWindow).toBe(9)
    // heartbeats are not presence updates
    expect(SessionMachine.receive(state, heartbeat, 30)[1].map((a) => a._tag)).toEqual(["Send"])
    // fixed windows from HELLO (t=0), like the command limit's
    expect(SessionMachine.receive(state, presence, 59_999)[1]).toEqual([])
    expect(SessionMachine.receive(state, presence, 60_000)[1].map((a) => a._tag)).toEqual(["PresenceUpdate"])
  })

  it("asks for a missed heartbeat at 1.5 intervals, and closes 4009 half an interval later", () => {
    const [state] = SessionMachine.start(0, INTERVAL)
    expect(SessionMachine.tick(state, 59_999)[1]).toEqual([])
    const [asked, ask] = SessionMachine.tick(state, 60_000)
    expect(ask).toEqual([{ _tag: "Send", text: expect.stringContaining('"op":1') }])
    expect(SessionMachine.nextCheckAt(asked)).toBe(80_000)
    // answered in time: the deadline moves on
    const [answered] = SessionMachine.receive(asked, heartbeat, 70_000)
    expect(SessionMachine.nextCheckAt(answered)).toBe(130_000)
    expect(closeCode(SessionMachine.tick(asked, 80_000))).toEqual([CloseCodes.SESSION_TIMED_OUT])
  })
})

describe("Intents", () => {
  it("refuses unknown bits (4013) and privileged intents a bot's application does not allow (4014)", () => {
    expect(Intents.check(Intents.GUILDS | Intents.MESSAGE_CONTENT, true, 0)._tag).toBe("Valid")
    expect(Intents.check(1 << 30, true, 0)._tag).toBe("Invalid")
    expect(Intents.check(-1, false, 0)._tag).toBe("Invalid")
    expect(Intents.check(0.5, false, 0)._tag).toBe("Invalid")
    expect(Intents.check(Intents.GUILD_MEMBERS, true, 0)._tag).toBe("Disallowed")
    expect(
      Intents.check(Intents.GUILD_PRESENCES, true, Intents.ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED)._tag
    ).toBe("Disallowed")
    expect(
      Intents.check(
        Intents.GUILD_MEMBERS | Intents.GUILD_PRESENCES,
        true,
        Intents.ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED | Intents.ApplicationFlags.GATEWAY_PRESENCE
      )._tag
    ).toBe("Valid")
    // users are not limited by application flags
    expect(Intents.check(Intents.GUILD_MEMBERS, false, 0)._tag).toBe("Valid")
    expect(Intents.required("GUILD_MEMBER_ADD", true)).toBe(Intents.GUILD_MEMBERS)
    expect(Intents.required("MESSAGE_CREATE", false)).toBe(Intents.DIRECT_MESSAGES)
    expect(Intents.required("USER_UPDATE", false)).toBe(0)
    expect(Intents.required("constructor", false)).toBe(0)
  })
})

describe("Session replay", () => {
  const sent: Array<string> = []
  const make = (replayLimit: number) =>
    Session.make({
      id: "s",
      userId: "1" as never,
      bot: false,
      intents: Intents.ALL,
      readsContent: true,
      shard: [0, 1],
      largeThreshold: 50,
      replayLimit,
      sink: { send: (text) => sent.push(text), close: () => {} }
    })

  it("numbers dispatches, holds live ones until READY is out, and replays what a resume missed", () => {
    const session = make(3)
    Session.deliver(session, { head: '{"op":0,"t":"LIVE","s":', tail: ',"d":{}}' })
    Session.emit(session, { head: '{"op":0,"t":"READY","s":', tail: ',"d":{}}' })
    Session.started(session)
    expect(Session.missedAfter(session, 0)).toEqual([
      '{"op":0,"t":"READY","s":1,"d":{}}',
      '{"op":0,"t":"LIVE","s":2,"d":{}}'
    ])
    Session.deliver(session, { head: '{"op":0,"t":"A","s":', tail: ',"d":{}}' })
    Session.deliver(session, { head: '{"op":0,"t":"B","s":', tail: ',"d":{}}' })
    // only the last 3 kept
    expect(session.replay).toHaveLength(3)
    expect(Session.missedAfter(session, 1)).toEqual([
      '{"op":0,"t":"LIVE","s":2,"d":{}}',
      '{"op":0,"t":"A","s":3,"d":{}}',
      '{"op":0,"t":"B","s":4,"d":{}}'
    ])
    expect(Session.missedAfter(session, 2)).toEqual(['{"op":0,"t":"A","s":3,"d":{}}', '{"op":0,"t":"B","s":4,"d":{}}'])
    expect(Session.missedAfter(session, 4)).toEqual([])
    expect(Session.missedAfter(session, 0)).toBeUndefined() // seq 1 no longer kept
    expect(Session.missedAfter(session, 5)).toBeUndefined() // from the future
  })

  it("keeps the newest in order as the ring wraps around, each frame as the client got it", () => {
    sent.length = 0
    const session = make(4)
    Session.started(session)
    const parts = (name: string) => ({ head: `{"op":0,"t":"${name}","s":`, tail: ',"d":{}}' })
    for (let i = 1; i <= 11; i++) Session.deliver(session, parts(`E${i}`))
    expect(session.replay).toHaveLength(4)
    expect(Session.missedAfter(session, 7)).toEqual(sent.slice(7))
    expect(Session.missedAfter(session, 9)).toEqual(sent.slice(9))
    expect(Session.missedAfter(session, 6)).toBeUndefined()
    const none = make(0)
    Session.started(none)
    Session.deliver(none, parts("E"))
    expect(Session.missedAfter(none, 1)).toEqual([])
    expect(Session.missedAfter(none, 0)).toBeUndefined()
  })

  it("does not keep READY and its GUILD_CREATEs: a resume from before their end gets op 9", () => {
    const session = make(10)
    Session.deliver(session, { head: '{"op":0,"t":"LIVE","s":', tail: ',"d":{}}' })
    Session.emitWithoutReplay(session, { head: '{"op":0,"t":"READY","s":', tail: ',"d":{}}' })
    Session.emitWithoutReplay(session, { head: '{"op":0,"t":"GUILD_CREATE","s":', tail: ',"d":{}}' })
    Session.started(session)
    expect(Session.missedAfter(session, 2)).toEqual(['{"op":0,"t":"LIVE","s":3,"d":{}}'])
    expect(Session.missedAfter(session, 1)).toBeUndefined()
    expect(Session.missedAfter(session, 0)).toBeUndefined()
  })

  it("puts a guild in a bot's shard as the platform does", () => {
    // 4194304 = 1 << 22: shard (id >> 22) % n
    expect(Session.inShard([1, 2], String(4194304n))).toBe(true)
    expect(Session.inShard([0, 2], String(4194304n))).toBe(false)
    expect(Session.inShard([0, 1], "123")).toBe(true)
  })
})
