/**
 * LibraryComments.strip empties comment-only lines and nothing else, and on the installed effect
 * packages (every version in the workspace's store) it changes no code: each file's code printed
 * by TypeScript without comments is the same before and after. A line of a multi-line template or
 * string that opens like a comment would show here as a difference.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import ts from "typescript"
import * as LibraryComments from "../src/LibraryComments.ts"

const ROOT = path.resolve(import.meta.dirname, "../../..")

const stripText = (text: string): string =>
  new TextDecoder().decode(LibraryComments.strip(new TextEncoder().encode(text)))

/** The code of a module as TypeScript prints it, without comments. */
const code = (text: string): string => {
  const file = ts.createSourceFile("module.js", text, ts.ScriptTarget.ESNext, false, ts.ScriptKind.JS)
  return ts.createPrinter({ removeComments: true }).printFile(file)
}

/** Every .js file under the dist/ folders of the installed effect and @effect/* packages. */
const libraryFiles = (): ReadonlyArray<string> => {
  const store = path.join(ROOT, "node_modules/.pnpm")
  const dists = new Set<string>()
  for (const entry of readdirSync(store)) {
    const modules = path.join(store, entry, "node_modules")
    const scope = path.join(modules, "@effect")
    const scoped = existsSync(scope) ? readdirSync(scope).map((name) => path.join(scope, name, "dist")) : []
    for (const dist of [path.join(modules, "effect/dist"), ...scoped]) {
      if (existsSync(dist)) dists.add(realpathSync(dist))
    }
  }
  return [...dists].flatMap((dist) =>
    readdirSync(dist, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".js"))
      .map((name) => path.join(dist, name))
  )
}

describe("LibraryComments", () => {
  it("empties comment-only lines and keeps every line's number", () => {
    const source = [
      "/**",
      " * Docs with a box ┌─── drawing",
      " */",
      "export const a = 1; // trailing stays",
      "  // a line comment",
      "const b = /*#__PURE__*/ f();",
      "/* a */ const c = 2;",
      "//# sourceMappingURL=a.js.map"
    ].join("\n")
    expect(stripText(source)).toBe(
      [
        "",
        "",
        "",
        "export const a = 1; // trailing stays",
        "",
        "const b = /*#__PURE__*/ f();",
        "/* a */ const c = 2;",
        "//# sourceMappingURL=a.js.map"
      ].join("\n")
    )
  })

  it("keeps a file without comments byte for byte, and a comment left open", () => {
    const source = "const a = 1;\r\nconst b = a / 2;\n/* open\nconst c = 3;"
    expect(stripText(source)).toBe(source)
  })

  it("applies to effect's and @effect/*'s published modules only", () => {
    expect(
      LibraryComments.isLibraryModule("file:///app/node_modules/.pnpm/effect@4.1.0/node_modules/effect/dist/Schema.js")
    ).toBe(true)
    expect(LibraryComments.isLibraryModule("file:///app/node_modules/@effect/platform-node/dist/NodeRuntime.js")).toBe(
      true
    )
    expect(LibraryComments.isLibraryModule("file:///app/node_modules/ws/lib/websocket.js")).toBe(false)
    expect(LibraryComments.isLibraryModule("file:///app/packages/kit/dist/index.js")).toBe(false)
  })

  it("changes no code of the installed effect packages", () => {
    const files = libraryFiles()
    expect(files.length).toBeGreaterThan(300)
    const changed = files.filter((file) => {
      const text = readFileSync(file, "utf8")
      const stripped = stripText(text)
      return stripped.split("\n").length !== text.split("\n").length || code(stripped) !== code(text)
    })
    expect(changed).toEqual([])
  }, 120_000)
})
