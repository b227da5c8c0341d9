/** The span lint (`pnpm run check:spans`): it finds every `Effect.fn(…)` call, and nothing else. */
import { describe, expect, it } from "@effect/vitest"
import { effectFnCalls, problemLine } from "../scripts/check-spans.ts"

// Fixtures are source text inside strings: the lint itself sees no call here.
const FIXTURE = [
  'const create = Effect.fn("Guilds.create")(function* (name: string) {',
  "  return name",
  "})",
  "const typed = Effect.fn<never>(function* () {})",
  'const spanned = Spans.fn("Guilds.rename")(function* () {})',
  "const step = Effect.fnUntraced(function* () {})",
  '// Effect.fn("In.a.comment")(function* () {})',
  'const text = "Effect.fn(in a string)"',
  'const nested = Layer.effect(Tag, Effect.gen(function* () { return { list: Effect.fn("Nested.list")(function* () {}) } }))'
].join("\n")

describe("check-spans", () => {
  it("finds Effect.fn calls, named or not, and no Spans.fn, fnUntraced, comment or string", () => {
    expect(effectFnCalls("fixture.ts", FIXTURE).map(({ line, name }) => `${line} ${name ?? "-"}`)).toEqual([
      "1 Guilds.create",
      "4 -",
      "9 Nested.list"
    ])
  })

  it("names the file, the line, the span and what to write instead", () => {
    const [first] = effectFnCalls("packages/guilds/src/Guilds.ts", FIXTURE)
    expect(first && problemLine(first)).toBe(
      'packages/guilds/src/Guilds.ts:1: Effect.fn("Guilds.create"): an operation is Spans.fn("<Service>.<operation>") from @veche/platform, a step Effect.fnUntraced'
    )
  })

  it("finds nothing in a file without Effect.fn", () => {
    expect(effectFnCalls("clean.ts", 'const ok = Spans.fn("A.b")(function* () {})')).toEqual([])
  })
})
