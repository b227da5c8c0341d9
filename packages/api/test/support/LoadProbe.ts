/**
 * Run as a script (`node LoadProbe.ts <specifier>`, from the directory to resolve it from): imports
 * the module and prints, as JSON, every module the import resolved (with the module that asked for
 * it) and every native addon it loaded. The resolve hook sees `import` and `require` alike; the
 * `process.dlopen` wrapper catches an addon however it is reached.
 */
import { registerHooks } from "node:module"
import { pathToFileURL } from "node:url"

export interface Report {
  readonly resolved: ReadonlyArray<{ readonly url: string; readonly parent: string | null }>
  readonly addons: ReadonlyArray<string>
}

const resolved: Array<{ url: string; parent: string | null }> = []
const addons: Array<string> = []

registerHooks({
  resolve: (specifier, context, nextResolve) => {
    const result = nextResolve(specifier, context)
    resolved.push({ url: result.url, parent: context.parentURL ?? null })
    return result
  }
})

const dlopen = process.dlopen
process.dlopen = (module: { exports: unknown }, filename: string, flags?: number) => {
  addons.push(filename)
  return flags === undefined ? dlopen(module, filename) : dlopen(module, filename, flags)
}

const specifier = process.argv[2]
if (specifier === undefined) throw new Error("usage: node LoadProbe.ts <specifier>")
// Resolved from the working directory, as a host importing the package would.
await import(import.meta.resolve(specifier, pathToFileURL(`${process.cwd()}/`).href))
const report: Report = { resolved, addons }
process.stdout.write(JSON.stringify(report))
