import { describe, expect, it } from "@effect/vitest"
import { KnownTokens, TTL_MS } from "../src/KnownTokens.ts"

describe("KnownTokens", () => {
  it("knows a header from its success until TTL_MS later, and not after it failed", () => {
    const known = KnownTokens.make()
    expect(known.digestIfKnown("Bot a", 0)).toBeUndefined()
    known.remember("Bot a", 0)
    const digest = known.digestIfKnown("Bot a", 1)
    expect(digest).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(known.digestIfKnown("Bot a", TTL_MS)).toBeUndefined()
    known.remember("Bot a", TTL_MS)
    known.forget("Bot a")
    expect(known.digestIfKnown("Bot a", TTL_MS + 1)).toBeUndefined()
  })

  it("holds at most its capacity, dropping the stalest first", () => {
    const known = KnownTokens.make({ capacity: 3 })
    for (const [i, header] of ["Bot 1", "Bot 2", "Bot 3", "Bot 4"].entries()) known.remember(header, i)
    expect(known.digestIfKnown("Bot 1", 10)).toBeUndefined()
    for (const header of ["Bot 2", "Bot 3", "Bot 4"]) expect(known.digestIfKnown(header, 10)).toBeDefined()
  })
})
