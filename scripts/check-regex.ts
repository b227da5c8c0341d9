/**
 * The ReDoS lint (`pnpm run check:regex`, part of `./dev check`): finds every regular expression
 * literal, and every `RegExp(...)` / `new RegExp(...)` built from a string literal, in the sources of
 * packages/, adapters/, examples/, test/, bench/ and scripts/, asks `recheck` whether each can
 * backtrack super-linearly, and fails listing file:line for every pattern that is not proven safe.
 *
 * One pattern with overlapping repeats (`[^\s@]+@[^\s@]+\.[^\s@]+`) let 80 KB of request body block
 * the event loop for 15 s; this keeps such a pattern from being merged again. The TypeScript parser
 * finds the literals, so a `/` in a string or a comment never counts as one.
 *
 * Run by Node 24 type stripping: `node scripts/check-regex.ts [files or directories...]`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { check, type Diagnostics } from "recheck"
import ts from "typescript"

/** A pattern as written in a source file. */
export interface Found {
  readonly file: string
  readonly line: number
  readonly source: string
  readonly flags: string
}

export interface Verdict extends Found {
  readonly status: Diagnostics["status"]
  /** recheck's explanation: the complexity and an attack string, or why it gave up. */
  readonly detail: string
}

export const ROOTS = ["packages", "adapters", "examples", "test", "bench", "scripts"] as const
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", ".veche", ".ci", "coverage"])
const SOURCE_FILE = /\.(ts|mts|cts|tsx|js|mjs|cjs)$/
const DECLARATION_FILE = /\.d\.[mc]?ts$/

const stringArgument = (node: ts.Expression | undefined): string | undefined =>
  node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined

/** Every regular expression in one file's text. */
export const findInSource = (file: string, text: string): ReadonlyArray<Found> => {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<Found> = []
  const at = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const end = node.text.lastIndexOf("/")
      found.push({ file, line: at(node), source: node.text.slice(1, end), flags: node.text.slice(end + 1) })
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp"
    ) {
      const source = stringArgument(node.arguments?.[0])
      if (source !== undefined) {
        found.push({ file, line: at(node), source, flags: stringArgument(node.arguments?.[1]) ?? "" })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(sourceFile)
  return found
}

const sourceFiles = (path: string): ReadonlyArray<string> => {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) return []
  if (stat.isFile()) return SOURCE_FILE.test(path) && !DECLARATION_FILE.test(path) ? [path] : []
  return readdirSync(path)
    .filter((name) => !SKIPPED_DIRECTORIES.has(name))
    .sort()
    .flatMap((name) => sourceFiles(join(path, name)))
}

const describe = (diagnostics: Diagnostics): string => {
  switch (diagnostics.status) {
    case "safe":
      return diagnostics.complexity.summary
    case "vulnerable":
      return `${diagnostics.complexity.summary}; attack: ${diagnostics.attack.pattern}`
    case "unknown":
      return `not proven safe (${diagnostics.error.kind})`
  }
}

/**
 * Only recheck's automaton checker: its verdict is a proof and the same on every run. The fuzzing
 * checker times matches, so on a loaded machine it flags safe patterns and can miss unsafe ones.
 * What the automaton cannot decide (look-behind, back-references) counts as not safe: write it
 * without them. A generous time limit per pattern, one pattern at a time, for slow CI machines.
 */
const PARAMETERS = { checker: "automaton", timeout: 60_000 } as const

/** recheck's verdict on each pattern. */
export const checkAll = async (found: ReadonlyArray<Found>): Promise<ReadonlyArray<Verdict>> => {
  const verdicts: Array<Verdict> = []
  for (const pattern of found) {
    const diagnostics = await check(pattern.source, pattern.flags, PARAMETERS)
    verdicts.push({ ...pattern, status: diagnostics.status, detail: describe(diagnostics) })
  }
  return verdicts
}

/** The report lines for the patterns that are not safe (empty when all are). */
export const failures = (verdicts: ReadonlyArray<Verdict>): ReadonlyArray<string> =>
  verdicts
    .filter((verdict) => verdict.status !== "safe")
    .map(
      (verdict) =>
        `${verdict.file}:${verdict.line}: /${verdict.source}/${verdict.flags} is ${verdict.status}: ${verdict.detail}`
    )

const main = async (paths: ReadonlyArray<string>): Promise<number> => {
  const root = process.cwd()
  const files = paths.flatMap(sourceFiles)
  const found = files.flatMap((file) => findInSource(relative(root, file), readFileSync(file, "utf8")))
  const lines = failures(await checkAll(found))
  if (lines.length === 0) {
    console.log(`check:regex: ${found.length} regular expressions in ${files.length} files, all safe`)
    return 0
  }
  console.error(`check:regex: ${lines.length} of ${found.length} regular expressions may backtrack super-linearly:`)
  for (const line of lines) console.error(`  ${line}`)
  return 1
}

if (import.meta.main) {
  const args = process.argv.slice(2)
  main(args.length > 0 ? args : ROOTS).then(
    (code) => {
      process.exitCode = code
    },
    (error: unknown) => {
      console.error(error)
      process.exitCode = 2
    }
  )
}
