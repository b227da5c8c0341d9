/**
 * `@veche/auth/Phone` (the "./*" subpath export) loads that module and its imports, not the barrel
 * and the rest of the package. A child Node process records every module it loads through a
 * module hook; the barrel's import is the control that shows the probe sees auth's modules at all.
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const PACKAGE = fileURLToPath(new URL("../", import.meta.url))

/** Imports `specifier` in a fresh Node (with these conditions) and answers auth's files it loaded. */
const loadedBy = (specifier: string, conditions: ReadonlyArray<string> = []): ReadonlyArray<string> => {
  const probe = `
    import { registerHooks } from "node:module"
    const loaded = []
    registerHooks({ load: (url, context, next) => { loaded.push(url); return next(url, context) } })
    await import(${JSON.stringify(specifier)})
    process.stdout.write(JSON.stringify(loaded))
  `
  const output = execFileSync(
    process.execPath,
    [...conditions.map((condition) => `--conditions=${condition}`), "--input-type=module", "--eval", probe],
    { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
  )
  return (JSON.parse(output) as Array<string>)
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url))
    .filter((path) => path.startsWith(PACKAGE))
    .map((path) => path.slice(PACKAGE.length))
    .sort()
}

describe("subpath imports", () => {
  it("@veche/auth/Phone loads src/Phone.ts alone; the barrel loads the whole package", () => {
    expect(loadedBy("@veche/auth/Phone")).toEqual(["src/Phone.ts"])
    const barrel = loadedBy("@veche/auth")
    expect(barrel).toContain("src/index.ts")
    expect(barrel).toContain("src/Registration.ts")
    expect(barrel.length).toBeGreaterThan(20)
  })

  it("a module under internal/ is not reachable by subpath, though the file exists", () => {
    expect(existsSync(`${ROOT}packages/guilds/src/internal/Patches.ts`)).toBe(true)
    expect(() => loadedBy("@veche/guilds/internal/Patches")).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/)
    expect(() => loadedBy("@veche/guilds/Permissions")).not.toThrow()
  })

  // The built files, as `./dev start` runs them (`--conditions=veche-dist`), once `./dev build` has run.
  it.skipIf(!existsSync(`${PACKAGE}dist/Phone.js`))("the built @veche/auth/Phone does not load the barrel", () => {
    const built = loadedBy("@veche/auth/Phone", ["veche-dist"])
    expect(built).toContain("dist/Phone.js")
    expect(built).not.toContain("dist/index.js")
    expect(built.length).toBeLessThan(5)
    expect(loadedBy("@veche/auth", ["veche-dist"]).length).toBeGreaterThan(20)
  })
})
