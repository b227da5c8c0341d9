/**
 * The principal cache's bookkeeping, apart from PostgreSQL: what it keeps, for how long, and which
 * answers it refuses because their user changed while they were being read.
 */
import { describe, expect, it } from "@effect/vitest"
import { Store } from "../src/PrincipalCache.ts"

const NOW = 1_000_000

/** How many token digests the per-user index still holds (private: read for the test only). */
const indexed = (store: Store<string>): number => {
  const byUser = (store as unknown as { digestsByUser: Map<string, Set<string>> }).digestsByUser
  let count = 0
  for (const digests of byUser.values()) count += digests.size
  return count
}

describe("PrincipalCache.Store", () => {
  it("keeps an answer for its token until it ends; the plain and the account lookups apart", () => {
    const store = new Store<string>(10)
    store.keep(store.ticket(), "d1", false, "7", "plain", NOW + 100)
    expect(store.get("d1", false, NOW)).toBe("plain")
    expect(store.get("d1", true, NOW)).toBeUndefined()
    store.keep(store.ticket(), "d1", true, "7", "with account", NOW + 50)
    expect(store.get("d1", true, NOW + 49)).toBe("with account")
    expect(store.get("d1", true, NOW + 50)).toBeUndefined()
    expect(store.get("d1", false, NOW + 99)).toBe("plain")
    expect(store.get("d1", false, NOW + 100)).toBeUndefined()
    expect(store.size).toBe(0)
  })

  it("a user's invalidation drops every token of theirs and no other user's", () => {
    const store = new Store<string>(10)
    store.keep(store.ticket(), "a1", false, "1", "a1", NOW + 100)
    store.keep(store.ticket(), "a1", true, "1", "a1+", NOW + 100)
    store.keep(store.ticket(), "a2", false, "1", "a2", NOW + 100)
    store.keep(store.ticket(), "b1", false, "2", "b1", NOW + 100)
    store.onNotification("1")
    expect([store.get("a1", false, NOW), store.get("a1", true, NOW), store.get("a2", false, NOW)]).toEqual([
      undefined,
      undefined,
      undefined
    ])
    expect(store.get("b1", false, NOW)).toBe("b1")
    store.onNotification("*")
    expect(store.get("b1", false, NOW)).toBeUndefined()
  })

  it("an answer read while its user was invalidated is not kept; one read after is", () => {
    const store = new Store<string>(10)
    const before = store.ticket()
    store.invalidate("1")
    store.keep(before, "d", false, "1", "stale", NOW + 100)
    expect(store.get("d", false, NOW)).toBeUndefined()
    // another user's change does not refuse it
    const other = store.ticket()
    store.invalidate("2")
    store.keep(other, "d", false, "1", "fresh", NOW + 100)
    expect(store.get("d", false, NOW)).toBe("fresh")
    store.keep(store.ticket(), "d", false, "1", "fresher", NOW + 100)
    expect(store.get("d", false, NOW)).toBe("fresher")
  })

  it("after a flush (a listening connection lost) answers begun before it are refused", () => {
    const store = new Store<string>(10)
    const before = store.ticket()
    store.flush()
    store.keep(before, "d", false, "1", "stale", NOW + 100)
    expect(store.size).toBe(0)
    store.keep(store.ticket(), "d", false, "1", "fresh", NOW + 100)
    expect(store.size).toBe(1)
  })

  it("past the users it remembers, every answer begun before is refused, whoever it is of", () => {
    const store = new Store<string>(10)
    const before = store.ticket()
    for (let user = 0; user <= 5000; user++) store.invalidate(String(user + 100))
    store.keep(before, "d", false, "1", "maybe stale", NOW + 100)
    expect(store.size).toBe(0)
  })

  it("holds at most its size, the oldest dropped first; size 0 keeps nothing", () => {
    const store = new Store<string>(3)
    for (let i = 0; i < 5; i++) store.keep(store.ticket(), `d${i}`, false, String(i), `v${i}`, NOW + 100)
    expect(store.size).toBe(3)
    expect(store.get("d0", false, NOW)).toBeUndefined()
    expect(store.get("d1", false, NOW)).toBeUndefined()
    expect(store.get("d4", false, NOW)).toBe("v4")
    // a dropped token's user index is gone too: invalidating them later is harmless
    store.invalidate("0")
    expect(store.size).toBe(3)
    const off = new Store<string>(0)
    off.keep(off.ticket(), "d", false, "1", "v", NOW + 100)
    expect(off.size).toBe(0)
  })

  it("with a bound on silence: answers only while its own heartbeat, sent within the bound, was heard", () => {
    let clock = 0
    const store = new Store<string>(10, { maxMs: 300, now: () => clock })
    store.keep(store.ticket(), "d", false, "1", "v", NOW + 10_000)
    // nothing heard yet: the notifications may lag by any amount
    expect(store.get("d", false, NOW)).toBeUndefined()
    const first = store.beat()
    clock = 50
    store.onNotification(first)
    expect(store.get("d", false, NOW)).toBe("v")
    // another node's heartbeat, or a stale copy of one's own, proves nothing
    clock = 301
    store.onNotification("~someone-else 1")
    store.onNotification(first)
    expect(store.get("d", false, NOW)).toBeUndefined()
    // a beat sent at 301 and heard at 400 covers up to 601; an older one heard later does not go back
    const older = store.beat()
    clock = 301
    const newer = store.beat()
    clock = 400
    store.onNotification(newer)
    store.onNotification(older)
    clock = 601
    expect(store.get("d", false, NOW)).toBe("v")
    clock = 602
    expect(store.get("d", false, NOW)).toBeUndefined()
    // the entries stay: heard again, they answer again
    const again = store.beat()
    store.onNotification(again)
    expect(store.get("d", false, NOW)).toBe("v")
  })

  it("counts every lookup, answered or not, and wakes whoever waits for the next one once", () => {
    const store = new Store<string>(10)
    store.keep(store.ticket(), "d", false, "1", "v", NOW + 100)
    expect(store.asks).toBe(0)
    let woken = 0
    store.whenAsked(() => woken++)
    expect(store.get("d", false, NOW)).toBe("v")
    expect(store.get("unknown", true, NOW)).toBeUndefined()
    expect(store.asks).toBe(2)
    expect(woken).toBe(1)
    // a cancelled wait is not called
    const cancel = store.whenAsked(() => woken++)
    cancel()
    store.get("d", false, NOW)
    expect(woken).toBe(1)
    expect(store.asks).toBe(3)
  })

  it("an entry dropped because it ended leaves nothing in the per-user index", () => {
    const store = new Store<string>(10)
    // tokens of users that are never written again (abandoned clients, expired bots)
    for (let user = 0; user < 100; user++) {
      store.keep(store.ticket(), `d${user}`, false, String(user), "v", NOW + 100)
      store.keep(store.ticket(), `d${user}`, true, String(user), "v+", NOW + 100)
    }
    // the last 10 kept are asked for after they ended: `get` drops them
    for (let user = 95; user < 100; user++) {
      expect(store.get(`d${user}`, false, NOW + 100)).toBeUndefined()
      expect(store.get(`d${user}`, true, NOW + 100)).toBeUndefined()
    }
    expect(store.size).toBe(0)
    // the index must not outlive the entries it indexes (it is bounded by nothing else)
    expect(indexed(store)).toBe(0)
  })

  it("a digest ended in one lookup but alive in the other stays indexed", () => {
    const store = new Store<string>(10)
    store.keep(store.ticket(), "d", false, "1", "plain", NOW + 100)
    store.keep(store.ticket(), "d", true, "1", "with account", NOW + 50)
    expect(store.get("d", true, NOW + 60)).toBeUndefined()
    expect(indexed(store)).toBe(1)
    store.invalidate("1")
    expect(store.get("d", false, NOW + 60)).toBeUndefined()
  })
})
