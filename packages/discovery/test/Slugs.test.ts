import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import * as Slugs from "../src/Slugs.ts"

describe("Slugs", () => {
  it("transliterates Russian, drops accents and punctuation, joins words with single dashes", () => {
    expect(Slugs.fromName("Шахматный клуб")).toBe("shakhmatnyy-klub")
    expect(Slugs.fromName("  Café -- Ünïcode!!  ")).toBe("cafe-unicode")
    expect(Slugs.fromName("Йошкар-Ола Щи")).toBe("yoshkar-ola-shchi")
  })

  it("always starts with a letter (never a bare id), at most 40 characters, no dash at either end", () => {
    expect(Slugs.fromName("2024 Cup")).toBe("server-2024-cup")
    expect(Slugs.fromName("🎮🎮")).toBe("server")
    const long = Slugs.fromName("word ".repeat(30))
    expect(long.length).toBeLessThanOrEqual(40)
    expect(long.endsWith("-")).toBe(false)
    expect(Slugs.fromName("-".repeat(100_000))).toBe("server")
  })

  it("candidates: the name's slug, then with the id, then the id", () => {
    const id = Snowflake.Snowflake.make("1234567890123456789")
    const [base, withId, bare] = Slugs.candidates("x".repeat(60), id)
    expect(base).toBe("x".repeat(40))
    expect(withId).toBe(`${"x".repeat(20)}-${id}`)
    expect(withId?.length).toBe(40)
    expect(bare).toBe(id)
    expect(Slugs.isWellFormed("a-b-1")).toBe(true)
    expect(Slugs.isWellFormed("A\u0000")).toBe(false)
  })
})
