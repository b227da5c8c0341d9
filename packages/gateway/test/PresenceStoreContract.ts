/**
 * What every PresenceStore must do, run on memory (PresenceStore.test.ts) and on Redis
 * (adapters/redis/test/RedisPresenceStore.test.ts): presence while a session's lease lives, grace
 * after the last one ends, a lapsed lease (a crashed node) claimed by exactly one sweeper, visible
 * users per guild and their counts, guild joins and leaves, settings changes only for present users.
 */
import { expect, it } from "@effect/vitest"
import type { Snowflake } from "@veche/platform"
import { Effect, Option, type Scope } from "effect"
import type { PresenceStore } from "../src/PresenceStore.ts"

type Store = PresenceStore["Service"]
const id = (value: string) => value as Snowflake.Snowflake

/** `nodes()` builds two stores sharing one state (two nodes), on keys no other run shares. */
export const presenceStoreContract = (
  nodes: () => Effect.Effect<readonly [Store, Store], never, Scope.Scope>,
  run: (name: string, body: () => Effect.Effect<void, never, Scope.Scope>) => void = (name, body) =>
    it.live(name, () => Effect.scoped(body()))
) => {
  const T = 1_800_000_000_000
  const online = { status: "online", activities: [] } as const
  const U = id("100")
  const V = id("101")
  const G = id("900")
  const H = id("901")

  run("present while a lease lives; the last session's end starts the grace; then one sweeper claims", () =>
    Effect.gen(function* () {
      const [a, b] = yield* nodes()
      expect(yield* a.put(U, online, [G, H], { id: "s1", now: T, until: T + 60_000 })).toEqual(Option.none())
      const idle = { status: "idle", activities: [{ type: 0, name: "Chess" }] } as const
      expect(yield* b.put(U, idle, [G, H], { id: "s2", now: T, until: T + 60_000 })).toEqual(Option.some(online))
      expect(yield* a.get([U, V])).toEqual(new Map([[U, idle]]))
      expect(yield* a.guildCounts([G, H, id("902")])).toEqual(
        new Map([
          [G, 1],
          [H, 1],
          [id("902"), 0]
        ])
      )
      expect(yield* b.onlineCount).toBe(1)
      // one of two sessions ends: still present, nothing due
      yield* a.end(U, "s1", T + 1000, T + 6000)
      expect(yield* b.sweep(T + 10_000)).toEqual([])
      // the last ends: due after the grace, not before
      yield* b.end(U, "s2", T + 11_000, T + 16_000)
      expect(yield* a.sweep(T + 15_000)).toEqual([])
      expect((yield* a.get([U])).size).toBe(1)
      const [first, second] = yield* Effect.all([a.sweep(T + 16_000), b.sweep(T + 16_000)], {
        concurrency: "unbounded"
      })
      expect([...first, ...second]).toEqual([{ userId: U, entry: idle, guildIds: expect.arrayContaining([G, H]) }])
      expect(yield* a.get([U])).toEqual(new Map())
      expect(yield* a.guildCounts([G])).toEqual(new Map([[G, 0]]))
      expect(yield* a.onlineCount).toBe(0)
    })
  )

  run("a session back within the grace keeps the user present (no offline between)", () =>
    Effect.gen(function* () {
      const [a, b] = yield* nodes()
      yield* a.put(U, online, [G], { id: "s1", now: T, until: T + 60_000 })
      yield* a.end(U, "s1", T + 1000, T + 6000)
      expect(yield* b.put(U, online, [G], { id: "s2", now: T + 2000, until: T + 62_000 })).toEqual(Option.some(online))
      expect(yield* a.sweep(T + 7000)).toEqual([])
      expect((yield* b.get([U])).size).toBe(1)
    })
  )

  run("a node that stops renewing (crashed): its sessions lapse and the user is claimed", () =>
    Effect.gen(function* () {
      const [a, b] = yield* nodes()
      yield* a.put(U, online, [G], { id: "s1", now: T, until: T + 60_000 })
      yield* b.put(V, online, [G], { id: "s2", now: T, until: T + 60_000 })
      // b renews its session; a does not
      expect(yield* b.refresh([{ userId: V, sessionId: "s2" }], T + 20_000, T + 80_000)).toEqual([])
      expect(yield* b.sweep(T + 59_999)).toEqual([])
      const claimed = yield* b.sweep(T + 60_000)
      expect(claimed.map((one) => one.userId)).toEqual([U])
      expect(yield* a.guildCounts([G])).toEqual(new Map([[G, 1]]))
      // the lapsed session renewed late is reported lost (the node puts it again)
      expect(yield* a.refresh([{ userId: U, sessionId: "s1" }], T + 61_000, T + 121_000)).toEqual(["s1"])
    })
  )

  run("invisible is present but counted nowhere; settings changes touch only present users", () =>
    Effect.gen(function* () {
      const [a, b] = yield* nodes()
      const hidden = { status: "invisible", activities: [] } as const
      // absent, no session: nothing written
      expect(yield* a.put(U, online, [G], undefined)).toEqual(Option.none())
      expect(yield* a.get([U])).toEqual(new Map())
      yield* a.put(U, hidden, [G], { id: "s1", now: T, until: T + 60_000 })
      expect(yield* b.guildCounts([G])).toEqual(new Map([[G, 0]]))
      expect(yield* b.visibleIn(G)).toEqual([])
      expect(yield* b.onlineCount).toBe(0)
      expect(yield* b.put(U, online, [G], undefined)).toEqual(Option.some(hidden))
      expect(yield* a.visibleIn(G)).toEqual([U])
      expect(yield* a.onlineCount).toBe(1)
      // a guild joined and left while present
      // the first to hear of the join is told it shows there (and tells the guild), the next is not
      expect(yield* b.joinGuild(U, H)).toBe(true)
      expect(yield* a.joinGuild(U, H)).toBe(false)
      expect(yield* a.guildCounts([H])).toEqual(new Map([[H, 1]]))
      yield* a.leaveGuild(U, G)
      expect(yield* b.guildCounts([G, H])).toEqual(
        new Map([
          [G, 0],
          [H, 1]
        ])
      )
      // joining while absent changes nothing
      expect(yield* a.joinGuild(V, G)).toBe(false)
      expect(yield* a.visibleIn(G)).toEqual([])
      yield* a.end(U, "s1", T + 1000, T + 2000)
      expect((yield* b.sweep(T + 2000))[0]?.guildIds).toEqual([H])
      expect(yield* a.guildCounts([H])).toEqual(new Map([[H, 0]]))
    })
  )
}
