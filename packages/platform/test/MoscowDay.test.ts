import { describe, expect, it } from "@effect/vitest"
import { DateTime } from "effect"
import * as MoscowDay from "../src/MoscowDay.ts"

const at = (iso: string) => DateTime.makeUnsafe(iso)

describe("MoscowDay", () => {
  it("21:00 UTC starts the next Moscow day", () => {
    expect(MoscowDay.of(at("2026-03-31T20:59:59.999Z"))).toBe("2026-03-31")
    expect(MoscowDay.of(at("2026-03-31T21:00:00.000Z"))).toBe("2026-04-01")
    expect(DateTime.formatIso(MoscowDay.start("2026-04-01"))).toBe("2026-03-31T21:00:00.000Z")
  })

  it("a Moscow month starts at 21:00 UTC on the last day of the month before", () => {
    expect(DateTime.formatIso(MoscowDay.monthStart(at("2026-03-31T21:00:00.000Z")))).toBe("2026-03-31T21:00:00.000Z")
    expect(DateTime.formatIso(MoscowDay.monthStart(at("2026-03-31T20:59:59.999Z")))).toBe("2026-02-28T21:00:00.000Z")
    expect(DateTime.formatIso(MoscowDay.monthStart(at("2026-01-15T12:00:00.000Z")))).toBe("2025-12-31T21:00:00.000Z")
  })

  it("names each instant's own day whatever was asked before (the last day is remembered)", () => {
    const instants = [
      "2026-03-31T20:59:59.999Z",
      "2026-03-31T21:00:00.000Z",
      "2026-03-31T20:59:59.999Z",
      "1969-12-31T20:59:59.999Z",
      "1969-12-31T21:00:00.000Z",
      "2026-03-31T21:00:00.000Z"
    ]
    const expected = instants.map((iso) => new Date(Date.parse(iso) + 3 * 3600_000).toISOString().slice(0, 10))
    expect(instants.map((iso) => MoscowDay.of(at(iso)))).toEqual(expected)
    expect(expected).toEqual(["2026-03-31", "2026-04-01", "2026-03-31", "1969-12-31", "1970-01-01", "2026-04-01"])
  })
})
