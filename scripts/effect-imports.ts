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

/** What each name a barrel exports stands for, read from its index file. */
const targetsOf = (barrel: string): ReadonlyMap<string, Target> => {
  const text = readFileSync(resolveFrom.resolve(barrel), "utf8").replace(/\/\*[\s\S]*?\*\//g, "")
  const targets = new Map<string, Target>()
  const moduleOf = (file: string) => `${barrel}/${file}`
  for (const [, name = "", file = ""] of text.matchAll(/export \* as (\w+) from "\.\/([\w/-]+)\.js"/g)) {
    targets.set(name, { module: moduleOf(file), named: undefined })
  }
  for (const [, names = "", file = ""] of text.matchAll(/export \{([^}]*)\} from "\.\/([\w/-]+)\.js"/g)) {
    for (const name of names.split(",").map((part) => part.trim())) {
      if (/^\w+$/.test(name)) targets.set(name, { module: moduleOf(file), named: name })
    }
  }
  return targets
}

const TARGETS: ReadonlyMap<string, ReadonlyMap<string, Target>> = new Map(
  BARRELS.map((barrel) => [barrel, targetsOf(barrel)])
)

const BARREL_IMPORT = /import\s*(type\s+)?\{([^}]*)\}\s*from\s*"(effect(?:\/[\w-]+)?)";?/g

const rewriteOne = (match: string, allType: boolean, names: string, barrel: string): string => {
  const targets = TARGETS.get(barrel)
  if (targets === undefined) return match
  const parts = names
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const typeOnly = allType || part.startsWith("type ")
      const [imported = "", local = imported] = part
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .map((name) => name.trim())
      return { typeOnly, imported, local, target: targets.get(imported) }
    })
  // A name the barrel does not export as above: leave the whole import as it is.
  if (parts.some((part) => part.target === undefined)) return match
  return parts
    .map(({ typeOnly, imported, local, target }) => {
      const keyword = typeOnly ? "import type" : "import"
      return target?.named === undefined
        ? `${keyword} * as ${local} from "${target?.module}";`
        : `${keyword} { ${imported} as ${local} } from "${target.module}";`
    })
    .join(" ")
}

/** The source with every barrel import replaced, lines kept (source maps stay right). */
export const rewrite = (source: string): string =>
  source.replace(
    BARREL_IMPORT,
    (match: string, type: string | undefined, names: string, barrel: string) =>
      rewriteOne(match, type !== undefined, names, barrel) + "\n".repeat(match.split("\n").length - 1)
  )
