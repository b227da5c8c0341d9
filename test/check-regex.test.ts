/** The ReDoS lint (`pnpm run check:regex`): it finds the patterns in source text and flags the unsafe ones. */
import { describe, expect, it } from "@effect/vitest"
import { checkAll, failures, findInSource } from "../scripts/check-regex.ts"

// Fixtures are source text inside strings: the lint itself sees no pattern here.
const FIXTURE = [
  "const nested = /^(a+)+$/",
  'const built = new RegExp("^(x|x)*y$", "u")',
  "const fine = /^[a-z0-9_.]*$/i",
  'const text = "/not(a+)+pattern/" // nor /this(b+)+/ in a comment',
  'const dynamic = new RegExp(prefix + "(a+)+")'
].join("\n")

describe("check-regex", () => {
  it("finds regular expression literals and RegExp built from literals, with their lines and flags", () => {
    expect(findInSource("fixture.ts", FIXTURE).map(({ line, source, flags }) => ({ line, source, flags }))).toEqual([
      { line: 1, source: "^(a+)+$", flags: "" },
      { line: 2, source: "^(x|x)*y$", flags: "u" },
      { line: 3, source: "^[a-z0-9_.]*$", flags: "i" }
    ])
  })

  it("flags a super-linear pattern with file:line and passes a safe one", async () => {
    const report = failures(await checkAll(findInSource("fixture.ts", FIXTURE)))
    expect(report).toHaveLength(2)
    expect(report[0]).toMatch(/^fixture\.ts:1: \/\^\(a\+\)\+\$\/ is vulnerable: exponential/)
    expect(report[1]).toMatch(/^fixture\.ts:2: /)
    expect(report.join("\n")).not.toContain("fixture.ts:3")
  })

  it("flags the e-mail pattern that blocked the event loop, and passes its replacement", async () => {
    const report = failures(
      await checkAll([
        ...findInSource("old.ts", String.raw`const email = /^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$/`),
        ...findInSource("new.ts", String.raw`const email = /^\s*[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+\s*$/`)
      ])
    )
    expect(report).toEqual([expect.stringMatching(/^old\.ts:1: .* is vulnerable: 2nd degree polynomial/)])
  })
})
