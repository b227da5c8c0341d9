import { describe, expect, it } from "@effect/vitest"
import * as TextMatch from "../src/TextMatch.ts"
import * as Words from "../src/Words.ts"

describe("TextMatch (the in-memory search)", () => {
  const text = "Шахматы онлайн Играем в шахматы каждый вечер Minecraft builders redstone"

  it("matches words, other forms and typos in Russian and English; every query word must match", () => {
    for (const query of ["шахматы", "ШАХМАТАХ", "шахмты", "Шахматы", "minecarft", "builder", "redstone"])
      expect(TextMatch.score(query, text), query).toBeGreaterThan(0)
    for (const query of ["футбол", "zzzz", "minecraft футбол", ""]) expect(TextMatch.score(query, text), query).toBe(0)
  })

  it("an exact word ranks above a typo", () => {
    expect(TextMatch.score("minecraft", text)).toBeGreaterThan(TextMatch.score("minecarft", text))
  })
})

describe("Words", () => {
  it("finds disallowed words as whole words and runs, case-insensitive, ё as е", () => {
    expect(Words.found("Best CASINO in town", ["casino"])).toEqual(["casino"])
    expect(Words.found("casinos and casino-like", ["casino"])).toEqual(["casino"])
    expect(Words.found("occasional", ["casino", "sion"])).toEqual([])
    expect(Words.found("Get FREE   money!", ["free money"])).toEqual(["free money"])
    expect(Words.found("Ёлка", ["елка"])).toEqual(["елка"])
  })
})
