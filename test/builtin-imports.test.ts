/**
 * Runtime code takes `node:http` and `node:https` as CommonJS builtins (`process.getBuiltinModule`),
 * never by a value `import`: an ESM import reads every export to build the module's namespace, and
 * `WebSocket`, `CloseEvent` and `MessageEvent` are getters that load Node's bundled undici, 4–6 MB
 * of the idle reference server's resident memory (measured; type-only imports are erased).
 */
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"

const ROOT = path.resolve(import.meta.dirname, "..")
const HTTP_SPECIFIERS = ['"node:http"', '"node:https"', '"http"', '"https"']

/** Whether a module's source has a value import (one line, as biome formats them) of http or https. */
const importsHttp = (source: string): boolean =>
  source
    .split("\n")
    .some(
      (line) =>
        line.startsWith("import ") &&
        !line.startsWith("import type ") &&
        HTTP_SPECIFIERS.some((specifier) => line.endsWith(`from ${specifier}`))
    )

const sourcesOf = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : sourcesOf(full)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [full] : []
  })

const runtimeSources = ["packages", "adapters"].flatMap((top) =>
  readdirSync(path.join(ROOT, top)).flatMap((name) => {
    const src = path.join(ROOT, top, name, "src")
    try {
      return sourcesOf(src)
    } catch {
      return []
    }
  })
)

describe("builtin imports", () => {
  it("finds the rule's target: a value import of node:http is caught, a type-only one is not", () => {
    expect(importsHttp('import { createServer } from "node:http"')).toBe(true)
    expect(importsHttp('const x = 1\nimport * as Https from "https"')).toBe(true)
    expect(importsHttp('import type { Server } from "node:http"')).toBe(false)
    expect(importsHttp('import { join } from "node:path"')).toBe(false)
  })

  it("no runtime module imports node:http or node:https as ESM", () => {
    expect(runtimeSources.length).toBeGreaterThan(100)
    const offenders = runtimeSources.filter((file) => importsHttp(readFileSync(file, "utf8")))
    expect(offenders.map((file) => path.relative(ROOT, file))).toEqual([])
  })
})
