/**
 * The TypeScript sources under a path, for the lints that read packages' `src` folders
 * (`check-bounds.ts`, `check-spans.ts`): `.ts`, `.mts`, `.cts` and `.tsx` files, declaration files
 * and `node_modules` / `dist` folders left out, in a stable (sorted) order.
 */
import { readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const SOURCE_FILE = /\.(ts|mts|cts|tsx)$/
const DECLARATION_FILE = /\.d\.[mc]?ts$/

export const sourceFiles = (path: string): ReadonlyArray<string> => {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (stat === undefined) return []
  if (stat.isFile()) return SOURCE_FILE.test(path) && !DECLARATION_FILE.test(path) ? [path] : []
  return readdirSync(path)
    .filter((name) => name !== "node_modules" && name !== "dist")
    .sort()
    .flatMap((name) => sourceFiles(join(path, name)))
}
