/**
 * Rewrites imports from effect's barrels into imports of the modules they name, for the build
 * (tsup.config.ts): `import { type Config, Effect, Array as Arr } from "effect"` becomes
 * `import type * as Config from "effect/Config"; import * as Effect from "effect/Effect";
 * import * as Arr from "effect/Array"`, and `import { HttpRouter } from "effect/http"`
 * `import * as HttpRouter from "effect/http/HttpRouter"`. A barrel loads every module it re-exports
 * (effect's has 140), whether the program uses them or not.
 *
 * What each name is comes from the barrel itself (`export * as Effect from "./Effect.js"`,
 * `export { pipe, … } from "./Function.js"`): a name the barrel does not export that way keeps the
 * barrel import, so the rewrite never changes what a name means, only which files load.
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"

/** effect's barrels the sources import from. */
const BARRELS = [
  "effect",
  "effect/crypto",
  "effect/encoding",
  "effect/http",
  "effect/http-api",
  "effect/net",
  "effect/persistence",
  "effect/sql",
  "effect/testing"
] as const

interface Target {
  /** The module's specifier, e.g. `effect/http/HttpRouter`. */
  readonly module: string
  /** Undefined for a namespace (`export * as`); else the name the module exports it by. */
  readonly named: string | undefined
}

const resolveFrom = createRequire(import.meta.url)

// Plain string scanning, no regular expressions: the repository's ReDoS lint (check:regex) holds
// every pattern to linear time, and these inputs are effect's index files and our sources.

/** The text with its block comments removed (the barrels document each export in one); line comments stay. */
const withoutBlockComments = (text: string): string => {
  let out = ""
  let at = 0
  for (;;) {
    const open = text.indexOf("/*", at)
    if (open === -1) return out + text.slice(at)
    const close = text.indexOf("*/", open + 2)
    if (close === -1) return out + text.slice(at, open)
    out += text.slice(at, open)
    at = close + 2
  }
}

/** The words of a piece of code, split at whitespace. */
const words = (text: string): ReadonlyArray<string> => text.split(/\s/).filter((word) => word.length > 0)

const isIdentifier = (word: string): boolean => word.length > 0 && !/\W/.test(word)

/** `./Effect.js` → `Effect`; anything else → undefined. */
const localFile = (quoted: string): string | undefined =>
  quoted.startsWith('"./') && quoted.endsWith('.js"') ? quoted.slice(3, -4) : undefined

/** What each name a barrel exports stands for, read from its index file. */
const targetsOf = (barrel: string): ReadonlyMap<string, Target> => {
  const statements = withoutBlockComments(readFileSync(resolveFrom.resolve(barrel), "utf8"))
    .split("\n")
    .filter((line) => !line.trim().startsWith("//"))
    .join("\n")
    .split(";")
  const targets = new Map<string, Target>()
  for (const statement of statements) {
    const [keyword, ...rest] = words(statement)
    if (keyword !== "export") continue
    const from = rest.lastIndexOf("from")
    const file = localFile(rest[from + 1] ?? "")
    if (from === -1 || file === undefined) continue
    const module = `${barrel}/${file}`
    // export * as Effect from "./Effect.js"
    if (from === 3 && rest[0] === "*" && rest[1] === "as" && isIdentifier(rest[2] ?? "")) {
      targets.set(rest[2] ?? "", { module, named: undefined })
      continue
    }
    // export { absurd, cast, … pipe } from "./Function.js"
    const list = rest.slice(0, from).join(" ")
    if (!list.startsWith("{") || !list.endsWith("}")) continue
    for (const name of list
      .slice(1, -1)
      .split(",")
      .map((part) => part.trim())) {
      if (isIdentifier(name)) targets.set(name, { module, named: name })
    }
  }
  return targets
}

const TARGETS: ReadonlyMap<string, ReadonlyMap<string, Target>> = new Map(
  BARRELS.map((barrel) => [barrel, targetsOf(barrel)])
)

/** The imports that replace `import [type] { names } from "barrel"`, or undefined to keep it. */
const rewriteOne = (allType: boolean, names: string, barrel: string): string | undefined => {
  const targets = TARGETS.get(barrel)
  if (targets === undefined) return undefined
  const parts = names
    .split(",")
    .map((part) => words(part))
    .filter((part) => part.length > 0)
    .map((part) => {
      const typeOnly = allType || part[0] === "type"
      const [imported = "", as, alias] = typeOnly && part[0] === "type" ? part.slice(1) : part
      const local = as === "as" && alias !== undefined ? alias : imported
      return { typeOnly, imported, local, target: targets.get(imported) }
    })
  // A name the barrel does not export as above: leave the whole import as it is.
  if (parts.some((part) => part.target === undefined)) return undefined
  return parts
    .map(({ typeOnly, imported, local, target }) => {
      const keyword = typeOnly ? "import type" : "import"
      return target?.named === undefined
        ? `${keyword} * as ${local} from "${target?.module}";`
        : `${keyword} { ${imported} as ${local} } from "${target.module}";`
    })
    .join(" ")
}

const skipSpace = (source: string, at: number): number => {
  let i = at
  while (i < source.length && /\s/.test(source.charAt(i))) i++
  return i
}

/**
 * One `import [type] { … } from "…";` starting at `at` (where `import` is): its end and the
 * replacement, or undefined when it is another kind of import or not from a barrel.
 */
const importAt = (source: string, at: number): { readonly end: number; readonly text: string } | undefined => {
  let i = skipSpace(source, at + "import".length)
  const allType = source.startsWith("type", i) && /\s/.test(source.charAt(i + 4))
  if (allType) i = skipSpace(source, i + 4)
  if (source.charAt(i) !== "{") return undefined
  const close = source.indexOf("}", i)
  if (close === -1) return undefined
  const names = source.slice(i + 1, close)
  i = skipSpace(source, close + 1)
  if (!source.startsWith("from", i)) return undefined
  i = skipSpace(source, i + 4)
  if (source.charAt(i) !== '"') return undefined
  const quote = source.indexOf('"', i + 1)
  if (quote === -1) return undefined
  const replacement = rewriteOne(allType, names, source.slice(i + 1, quote))
  if (replacement === undefined) return undefined
  const end = source.charAt(quote + 1) === ";" ? quote + 2 : quote + 1
  // The lines the import spanned stay, so source maps and stack traces keep their line numbers.
  const lines = source.slice(at, end).split("\n").length - 1
  return { end, text: replacement + "\n".repeat(lines) }
}

/** The source with every barrel import at the start of a line replaced, lines kept. */
export const rewrite = (source: string): string => {
  let out = ""
  let at = 0
  for (;;) {
    const found = source.indexOf("import", at)
    if (found === -1) return out + source.slice(at)
    const atLineStart = found === 0 || source.charAt(found - 1) === "\n"
    const replaced = atLineStart ? importAt(source, found) : undefined
    if (replaced === undefined) {
      out += source.slice(at, found + "import".length)
      at = found + "import".length
    } else {
      out += source.slice(at, found) + replaced.text
      at = replaced.end
    }
  }
}
