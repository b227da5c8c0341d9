import { describe, expect, it } from "@effect/vitest"
import { KnownTokens, TTL_MS } from "../src/KnownTokens.ts"

describe("KnownTokens", () => {
  it("knows a credential from its success until TTL_MS later, and not after it failed", () => {
    const known = KnownTokens.make()
    expect(known.isKnown("ba", 0)).toBe(false)
    known.remember("ba", 0)
    expect(known.isKnown("ba", 1)).toBe(true)
    expect(known.isKnown("ua", 1)).toBe(false)
    expect(known.isKnown("ba", TTL_MS)).toBe(false)
    known.remember("ba", TTL_MS)
    known.forget("ba")
    expect(known.isKnown("ba", TTL_MS + 1)).toBe(false)
  })

  it("holds at most its capacity, dropping the stalest first", () => {
    const known = KnownTokens.make({ capacity: 3 })
    for (const [i, key] of ["b1", "b2", "b3", "b4"].entries()) known.remember(key, i)
    expect(known.isKnown("b1", 10)).toBe(false)
    for (const key of ["b2", "b3", "b4"]) expect(known.isKnown(key, 10)).toBe(true)
  })
})
