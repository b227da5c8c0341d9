/**
 * Review of the principal cache (issue 22): what the Store keeps past its entries. Pure
 * bookkeeping; the PostgreSQL cases are in PrincipalCacheAttackPg.test.ts.
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

describe("PrincipalCache.Store (review)", () => {
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
