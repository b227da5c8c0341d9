/**
 * The span lint (`pnpm run check:spans`, part of `./dev check`): in the packages under packages/,
 * an operation is a `Spans.fn("<Service>.<operation>")` (from `@veche/platform`) or an
 * `Effect.fnUntraced`, never an `Effect.fn`. `Effect.fn` builds a call-site `Error` on every call,
 * tracer on or off, and a no-op span when tracing is off: ≈6 µs a call against ≈2 for `Spans.fn`,
 * 5–13 µs a routed request in the test host (issue 22). README's "Adding a domain" states the rule;
 * this holds new code to it.
 *
 * The packages in EXEMPT keep `Effect.fn`, each for its reason: their calls wait on a network, a
 * disk or image work, where a few µs do not count. Adapters (adapters/*) are not checked, for the
 * same reason.
 *
 * Run by Node 24 type stripping: `node scripts/check-spans.ts`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import { sourceFiles } from "./source-files.ts"

/** Packages whose operations may stay `Effect.fn`, with why. */
export const EXEMPT: Readonly<Record<string, string>> = {
  platform: "defines Spans itself, and holds the provider adapters (SMS, mail, captcha, the delivery queue)",
  media: "stores and reads files and processes images: the call waits on a disk or a codec",
  web: "reads the pages' files from disk once, at start-up"
}

/** One `Effect.fn` call in a file. */
export interface Found {
  readonly file: string
  readonly line: number
  /** The span's name when the call names one (`Effect.fn("Guilds.create")`). */
  readonly name: string | undefined
}

/** Whether an expression reads `fn` of an `effect` namespace (`Effect.fn`, `Effect.fn<…>`). */
const isEffectFn = (expression: ts.Expression): boolean =>
  ts.isPropertyAccessExpression(expression) &&
  expression.name.text === "fn" &&
  ts.isIdentifier(expression.expression) &&
  expression.expression.text === "Effect"

/** Every `Effect.fn(…)` call in one file's text; comments and strings never count. */
export const effectFnCalls = (file: string, text: string): ReadonlyArray<Found> => {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<Found> = []
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isEffectFn(node.expression)) {
      const first = node.arguments[0]
      found.push({
        file,
        line: sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1,
        name: first !== undefined && ts.isStringLiteralLike(first) ? first.text : undefined
      })
    }
    ts.forEachChild(node, visit)
  }
  visit(sourceFile)
  return found
}

/** The report line for one call. */
export const problemLine = (found: Found): string =>
  `${found.file}:${found.line}: Effect.fn${found.name === undefined ? "" : `("${found.name}")`}: ` +
  `an operation is Spans.fn("<Service>.<operation>") from @veche/platform, a step Effect.fnUntraced`

const main = (): number => {
  const owners = readdirSync("packages")
    .filter((name) => statSync(join("packages", name, "src"), { throwIfNoEntry: false })?.isDirectory() === true)
    .sort()
  const stale = Object.keys(EXEMPT).filter((name) => !owners.includes(name))
  const lines: Array<string> = stale.map(
    (name) => `scripts/check-spans.ts: EXEMPT names ${name}, no package: remove it`
  )
  let files = 0
  for (const owner of owners) {
    if (EXEMPT[owner] !== undefined) continue
    for (const file of sourceFiles(join("packages", owner, "src"))) {
      files++
      lines.push(...effectFnCalls(file, readFileSync(file, "utf8")).map(problemLine))
    }
  }
  if (lines.length === 0) {
    console.log(`check:spans: ${files} files in packages/*/src define their operations with Spans.fn`)
    return 0
  }
  console.error(`check:spans: ${lines.length} problems:`)
  for (const line of lines) console.error(`  ${line}`)
  return 1
}

if (import.meta.main) {
  process.exitCode = main()
}
