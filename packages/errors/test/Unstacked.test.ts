import { describe, expect, it } from "@effect/vitest"
import { RateLimited, unstacked } from "../src/index.ts"

describe("unstacked", () => {
  it("builds the error without stack frames and restores the stack limit, also when building throws", () => {
    const before = Error.stackTraceLimit
    const error = unstacked(() => new RateLimited({ retry_after: 1.5 }))
    expect(error.retry_after).toBe(1.5)
    expect(error.stack?.split("\n").filter((line) => line.trimStart().startsWith("at "))).toEqual([])
    expect(Error.stackTraceLimit).toBe(before)
    expect(() =>
      unstacked(() => {
        throw new Error("boom")
      })
    ).toThrow("boom")
    expect(Error.stackTraceLimit).toBe(before)
    expect(new RateLimited({ retry_after: 1 }).stack).toContain("at ")
  })
})
