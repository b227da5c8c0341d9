/**
 * The packaging lint (`pnpm run check:packages`, a CI step after `./dev build`): every publishable
 * package under packages/ and adapters/ is packed as it would be published and the tarball checked
 * by `publint` (package.json fields against the files: exports, types, files) and
 * `@arethetypeswrong/cli` (whether TypeScript resolves the types of each entry point).
 *
 * It builds nothing: the tarballs need the dist/ that `./dev build` (tsup + tsc declarations) makes,
 * and a package without it fails with that advice. The tarball comes from `pnpm pack`, which applies
 * `publishConfig` (our `exports` with `types`/`import` instead of the workspace's
 * `veche-build`/`veche-dist`/source conditions) and rewrites `workspace:*`; `attw --pack` would run
 * `npm pack`, which does neither, and so would check the workspace's exports instead.
 *
 * attw runs with `--profile esm-only`: the packages are ESM only (`"type": "module"`, Node >= 22.19,
 * an `import` condition and no `require`), so the `node10` and `node16 (from CJS)` resolutions are
 * expected to fail and are not checked; `node16 (from ESM)` and `bundler` are.
 *
 * Before packing, each package's manifest is held to the subpath rule: beside "." it exports "./*"
 * (one module of src/ by its file name, `@veche/auth/Phone`, so that an import loads that module and
 * not the barrel) and "./internal/*" as null, in the workspace's exports and in publishConfig's, and
 * dist/ holds the JavaScript and the declarations of every public module (tsup.config.ts builds one
 * file per module). A package added later fails here until it follows the same shape.
 *
 * Run by Node 24 type stripping with pnpm on PATH (`./dev pnpm run check:packages`):
 * `node scripts/check-packages.ts [package directories...]`.
 */
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"

const ROOT = join(import.meta.dirname, "..")
const BIN = join(ROOT, "node_modules", ".bin")

interface Manifest {
  readonly name: string
  readonly private?: boolean
  readonly exports?: Record<string, unknown>
  readonly publishConfig?: { readonly exports?: Record<string, unknown> }
}

/** The subpath exports every package carries, in the workspace and as published. */
const SUBPATHS = {
  exports: {
    "./*": { "veche-build": "./dist/*.d.ts", "veche-dist": "./dist/*.js", default: "./src/*.ts" },
    "./internal/*": null
  },
  published: { "./*": { types: "./dist/*.d.ts", import: "./dist/*.js" }, "./internal/*": null }
} as const

/** The package's public modules: src/ (and its folders) without internal/, as paths without `.ts`. */
const publicModules = (src: string, under = ""): ReadonlyArray<string> =>
  readdirSync(join(src, under), { withFileTypes: true }).flatMap((entry) => {
    const path = under === "" ? entry.name : `${under}/${entry.name}`
    if (entry.isDirectory()) return entry.name === "internal" ? [] : publicModules(src, path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path.slice(0, -".ts".length)] : []
  })

/** The subpath rule (see the top of this file): the manifest's exports and the built files. */
const checkSubpaths = (dir: string, manifest: Manifest): ReadonlyArray<string> => {
  const failures: Array<string> = []
  const same = (actual: unknown, expected: unknown) => JSON.stringify(actual) === JSON.stringify(expected)
  for (const [key, expected] of Object.entries(SUBPATHS.exports)) {
    if (!same(manifest.exports?.[key], expected))
      failures.push(`${manifest.name}: exports["${key}"] must be ${JSON.stringify(expected)}`)
  }
  for (const [key, expected] of Object.entries(SUBPATHS.published)) {
    if (!same(manifest.publishConfig?.exports?.[key], expected))
      failures.push(`${manifest.name}: publishConfig.exports["${key}"] must be ${JSON.stringify(expected)}`)
  }
  const missing = publicModules(join(dir, "src")).flatMap((module) =>
    [`dist/${module}.js`, `dist/${module}.d.ts`].filter((file) => !existsSync(join(dir, file)))
  )
  if (missing.length > 0)
    failures.push(`${manifest.name}: dist/ lacks ${missing.join(", ")} (one file per src module; run ./dev build)`)
  return failures
}

/** The publishable package directories: every non-private package under packages/ and adapters/. */
const publishable = (): ReadonlyArray<string> =>
  ["packages", "adapters"].flatMap((parent) =>
    readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(ROOT, parent, entry.name, "package.json")))
      .map((entry) => join(ROOT, parent, entry.name))
      .filter((dir) => (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest).private !== true)
  )

/** Runs a command, its output shown only when it fails; answers whether it succeeded. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string): { ok: boolean; output: string } => {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? String(result.error) : ""}`
  return { ok: result.status === 0, output }
}

const checkOne = (dir: string, scratch: string): ReadonlyArray<string> => {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest
  const name = manifest.name
  if (!existsSync(join(dir, "dist"))) return [`${name}: no dist/ (run ./dev build first)`]
  const subpaths = checkSubpaths(dir, manifest)
  if (subpaths.length > 0) return subpaths
  const destination = mkdtempSync(join(scratch, "pack-"))
  const pack = run("pnpm", ["pack", "--pack-destination", destination], dir)
  const tarball = readdirSync(destination).find((file) => file.endsWith(".tgz"))
  if (!pack.ok || tarball === undefined) return [`${name}: pnpm pack failed\n${pack.output}`]
  const path = join(destination, tarball)
  const failures: Array<string> = []
  // --strict: warnings (e.g. a file named in exports but missing from the tarball) fail too.
  const publint = run(join(BIN, "publint"), ["run", path, "--strict"], destination)
  if (!publint.ok) failures.push(`${name}: publint\n${publint.output}`)
  // attw does not expand the "./*" pattern: every public module is named as an entry point of its own.
  const modules = publicModules(join(dir, "src")).map((module) => `./${module}`)
  const attw = run(
    join(BIN, "attw"),
    [path, "--profile", "esm-only", "--format", "ascii", "--include-entrypoints", ...modules],
    destination
  )
  if (!attw.ok) failures.push(`${name}: attw\n${attw.output}`)
  return failures
}

const dirs = process.argv.length > 2 ? process.argv.slice(2).map((dir) => join(process.cwd(), dir)) : publishable()
const scratch = mkdtempSync(join(tmpdir(), "veche-check-packages-"))
const failures: Array<string> = []
try {
  for (const dir of dirs) {
    const found = checkOne(dir, scratch)
    console.log(`${found.length === 0 ? "ok  " : "FAIL"} ${relative(ROOT, dir)}`)
    failures.push(...found)
  }
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
if (failures.length > 0) {
  console.error(`\n${failures.join("\n\n")}`)
  console.error(`\ncheck:packages: ${failures.length} problem(s) in ${dirs.length} packages`)
  process.exitCode = 1
} else {
  console.log(`check:packages: ${dirs.length} packages pass publint and attw (esm-only)`)
}
