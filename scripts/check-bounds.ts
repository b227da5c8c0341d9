/**
 * The package-boundary lint (`pnpm run check:bounds`, part of `./dev check`): keeps the layering the
 * README's "Layout" describes. For every source file under packages/<name>/src:
 *
 * - a domain package (every package but kit, api and rest) imports only `effect`, `@veche/*`,
 *   Node's built-ins (`node:*`) and relative files; never an adapter (adapters/*), `@veche/rest`, `@veche/api` or `@veche/kit`;
 *   and never names another package's repository port (an imported binding or module path ending
 *   in `Repo`, type-only imports included): it asks the owning domain's service, or declares a port
 *   the owner answers;
 * - `@veche/api` (the contract) follows the same rules, without `node:*`, so it loads anywhere;
 * - `@veche/kit` (the composition) may import anything but an adapter;
 * - `@veche/rest` may import anything but an adapter.
 *
 * And every domain's (and api's) package.json depends on `effect` and `@veche/*` only, never on an
 * adapter, rest, api or kit; except the packages in ASSET_DEPENDENCIES, whose files a package
 * serves to browsers as published (never imported: the import rule above still forbids that).
 *
 * What cannot be fixed yet is listed in ALLOWED, with its reason; anything new fails.
 *
 * Run by Node 24 type stripping: `node scripts/check-bounds.ts`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import ts from "typescript"
import { sourceFiles } from "./source-files.ts"

/** Packages that are not domains: the composition, the HTTP contract, the HTTP server. */
const NOT_DOMAINS = new Set(["kit", "api", "rest"])

/**
 * npm packages a package ships to browsers as files, unread by its code: `@veche/web` serves uPlot's
 * ES module and style sheet to the staff panel (`Page.vendor`), found through Node's resolution.
 */
export const ASSET_DEPENDENCIES: Readonly<Record<string, ReadonlyArray<string>>> = { web: ["uplot"] }

/** One import a file makes: the module and the names it binds (imported and local names). */
export interface Imported {
  readonly line: number
  readonly module: string
  readonly names: ReadonlyArray<string>
}

/** A known, explained exception: `file` (relative to the repository) may import `binding`. */
export interface Allowed {
  readonly file: string
  readonly binding: string
  readonly reason: string
}

/**
 * Known exceptions, each with why it stays for now. Empty is the goal; an entry that no longer
 * matches anything is reported too, so the list only shrinks.
 */
export const ALLOWED: ReadonlyArray<Allowed> = []

/** Every import, re-export, `import("…")` type and dynamic import in one file's text. */
export const importsOf = (file: string, text: string): ReadonlyArray<Imported> => {
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<Imported> = []
  const at = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const names: Array<string> = []
      const clause = node.importClause
      if (clause?.name) names.push(clause.name.text)
      const bindings = clause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) names.push(bindings.name.text)
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          names.push(element.name.text)
          if (element.propertyName) names.push(element.propertyName.text)
        }
      }
      found.push({ line: at(node), module: node.moduleSpecifier.text, names })
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names: Array<string> = []
      const clause = node.exportClause
      if (clause && ts.isNamespaceExport(clause)) names.push(clause.name.text)
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          names.push(element.name.text)
          if (element.propertyName) names.push(element.propertyName.text)
        }
      }
      found.push({ line: at(node), module: node.moduleSpecifier.text, names })
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression
      if (ts.isStringLiteral(expression))
        found.push({ line: at(node), module: expression.text, names: [node.name.text] })
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      const names = node.qualifier
        ? [ts.isIdentifier(node.qualifier) ? node.qualifier.text : node.qualifier.right.text]
        : []
      found.push({ line: at(node), module: node.argument.literal.text, names })
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ line: at(node), module: node.arguments[0].text, names: [] })
    }
    ts.forEachChild(node, visit)
  }
  visit(sourceFile)
  return found
}

/** The package a module specifier names (`@veche/users/UsersRepo` → `@veche/users`), or undefined if relative. */
const packageOf = (module: string): string | undefined => {
  if (module.startsWith(".") || module.startsWith("/")) return undefined
  const parts = module.split("/")
  return module.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? module)
}

const endsInRepo = (name: string): boolean => name.endsWith("Repo")

/** What the rules need to know about the workspace. */
export interface Workspace {
  /** `@veche/<name>` of every adapter package. */
  readonly adapters: ReadonlySet<string>
}

/**
 * The problems with one file of package `owner` (its directory name under packages/), as report
 * lines, before the allowlist: `file:line: why (binding)`.
 */
export const problemsIn = (
  workspace: Workspace,
  owner: string,
  file: string,
  imports: ReadonlyArray<Imported>
): ReadonlyArray<{ readonly file: string; readonly binding: string; readonly line: string }> => {
  const problems: Array<{ file: string; binding: string; line: string }> = []
  const report = (imported: Imported, binding: string, why: string) =>
    problems.push({ file, binding, line: `${file}:${imported.line}: ${why} ("${imported.module}")` })
  const self = `@veche/${owner}`
  const strict = !NOT_DOMAINS.has(owner) || owner === "api"
  for (const imported of imports) {
    const pkg = packageOf(imported.module)
    if (pkg === undefined || pkg === self) continue
    if (workspace.adapters.has(pkg)) {
      report(imported, pkg, `${self} imports the adapter ${pkg}`)
      continue
    }
    if (!strict) continue
    // Node's built-in modules are the runtime, not a dependency, and load no native addon; a domain
    // may use them (node:crypto, node:fs for the filesystem media store). The contract may not:
    // it must load anywhere a client is generated.
    if (owner !== "api" && imported.module.startsWith("node:")) continue
    if (pkg !== "effect" && !pkg.startsWith("@veche/")) {
      report(
        imported,
        pkg,
        `${self} imports ${pkg}: a ${owner === "api" ? "contract" : "domain"} imports only effect and @veche/*`
      )
      continue
    }
    if (pkg === "@veche/rest" || pkg === "@veche/api" || pkg === "@veche/kit") {
      report(imported, pkg, `${self} imports ${pkg}, which sits above it`)
      continue
    }
    if (pkg.startsWith("@veche/")) {
      const path = imported.module.split("/").slice(2)
      const repos = [...imported.names, ...path].filter(endsInRepo)
      for (const binding of new Set(repos)) {
        report(
          imported,
          binding,
          `${self} names ${pkg}'s repository port ${binding}: ask a service of ${pkg}, or declare a port it answers`
        )
      }
    }
  }
  return problems
}

/** The problems with one package.json's dependencies. */
export const manifestProblems = (
  workspace: Workspace,
  owner: string,
  file: string,
  manifest: unknown
): ReadonlyArray<string> => {
  if (NOT_DOMAINS.has(owner) && owner !== "api") return []
  const record = (typeof manifest === "object" && manifest !== null ? manifest : {}) as Record<string, unknown>
  const problems: Array<string> = []
  for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
    const deps = record[field]
    if (typeof deps !== "object" || deps === null) continue
    for (const name of Object.keys(deps)) {
      if (ASSET_DEPENDENCIES[owner]?.includes(name)) continue
      const bad =
        (name !== "effect" && !name.startsWith("@veche/")) ||
        workspace.adapters.has(name) ||
        name === "@veche/rest" ||
        name === "@veche/kit" ||
        (name === "@veche/api" && owner !== "api")
      if (bad) problems.push(`${file}: ${field} has ${name}: a domain depends on effect and @veche/* domains only`)
    }
  }
  return problems
}

/** Report lines for the problems the allowlist does not cover, and for allowlist entries no longer needed. */
export const applyAllowlist = (
  problems: ReadonlyArray<{ readonly file: string; readonly binding: string; readonly line: string }>,
  allowed: ReadonlyArray<Allowed>
): ReadonlyArray<string> => {
  const covered = (problem: { file: string; binding: string }) =>
    allowed.some((entry) => entry.file === problem.file && entry.binding === problem.binding)
  const stale = allowed.filter(
    (entry) => !problems.some((problem) => problem.file === entry.file && problem.binding === entry.binding)
  )
  return [
    ...problems.filter((problem) => !covered(problem)).map((problem) => problem.line),
    ...stale.map((entry) => `${entry.file}: allowlist entry for ${entry.binding} matches nothing any more: remove it`)
  ]
}

const directories = (path: string): ReadonlyArray<string> =>
  readdirSync(path)
    .filter((name) => statSync(join(path, name), { throwIfNoEntry: false })?.isFile() === false)
    .sort()

const main = (): number => {
  const adapters = new Set(
    directories("adapters")
      .map((name) => join("adapters", name, "package.json"))
      .filter((file) => statSync(file, { throwIfNoEntry: false }) !== undefined)
      .map((file) => (JSON.parse(readFileSync(file, "utf8")) as { name: string }).name)
  )
  const workspace: Workspace = { adapters }
  const problems: Array<{ file: string; binding: string; line: string }> = []
  const manifestLines: Array<string> = []
  let files = 0
  for (const owner of directories("packages")) {
    const manifest = join("packages", owner, "package.json")
    if (statSync(manifest, { throwIfNoEntry: false }) === undefined) continue
    manifestLines.push(...manifestProblems(workspace, owner, manifest, JSON.parse(readFileSync(manifest, "utf8"))))
    for (const file of sourceFiles(join("packages", owner, "src"))) {
      files++
      problems.push(...problemsIn(workspace, owner, file, importsOf(file, readFileSync(file, "utf8"))))
    }
  }
  const lines = [...manifestLines, ...applyAllowlist(problems, ALLOWED)]
  if (lines.length === 0) {
    console.log(
      `check:bounds: ${files} files in packages/*/src keep the package boundaries (${ALLOWED.length} allowed)`
    )
    return 0
  }
  console.error(`check:bounds: ${lines.length} boundary problems:`)
  for (const line of lines) console.error(`  ${line}`)
  return 1
}

if (import.meta.main) {
  process.exitCode = main()
}
