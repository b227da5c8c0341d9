/**
 * The registry of token prefixes keeps every kind of opaque token recognisable: each prefix is
 * distinct, none is a prefix of another (so no token of one kind starts like a token of another),
 * and none begins with "bot" or "bearer" in any letter case (bot libraries strip such a word).
 */
import { describe, expect, it } from "@effect/vitest"
import { TOKEN_PREFIXES } from "../src/TokenPrefixes.ts"

const entries = Object.entries(TOKEN_PREFIXES)
const prefixes = entries.map(([, prefix]) => prefix)

describe("TokenPrefixes", () => {
  it("declares the kinds the domains mint", () => {
    expect(Object.keys(TOKEN_PREFIXES)).toEqual(
      expect.arrayContaining([
        "access",
        "refresh",
        "emailLink",
        "exportDownload",
        "bot",
        "clientSecret",
        "oauthAccess",
        "oauthRefresh",
        "oauthCode"
      ])
    )
  })

  it("are distinct", () => {
    expect(new Set(prefixes).size).toBe(prefixes.length)
  })

  it("none is a prefix of another", () => {
    for (const [kind, prefix] of entries) {
      for (const [other, otherPrefix] of entries) {
        if (kind !== other) expect([kind, other, otherPrefix.startsWith(prefix)]).toEqual([kind, other, false])
      }
    }
  })

  it('none begins with "bot" or "bearer" in any letter case', () => {
    for (const [kind, prefix] of entries) {
      expect([kind, /^(bot|bearer)/i.test(prefix)]).toEqual([kind, false])
    }
  })

  it("each is a short lower-case word ending in `_`, which base64url never follows ambiguously", () => {
    // The random part is base64url (letters, digits, `-`, `_`): the word before the first `_` names the kind.
    for (const [kind, prefix] of entries)
      expect([kind, prefix]).toEqual([kind, expect.stringMatching(/^[a-z0-9]{2,8}_$/)])
  })
})
