// One build for every package (run from the package folder): ESM from every public module of src/
// into dist/, one file per module, so that a subpath import (`@veche/auth/Phone`, the "./*" export)
// loads that module and its imports, not the barrel.
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { defineConfig } from "tsup"
import * as EffectImports from "./scripts/effect-imports.ts"

/** Every module under src/ except internal/ (private to the package: the "./internal/*" export is null). */
const modules = (dir: string): ReadonlyArray<string> =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? entry.name === "internal"
            ? []
            : modules(join(dir, entry.name))
          : entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")
            ? [join(dir, entry.name)]
            : []
      )
    : []

export default defineConfig({
  entry: [...modules("src")],
  format: ["esm"],
  target: "node22",
  platform: "node",
  // Declarations come from tsc, file by file (see tsconfig.build.json): the d.ts bundler loses the
  // value half of names that are both a value and a type inside `export * as` namespaces.
  dts: false,
  sourcemap: true,
  // `pnpm build:js` (what `pnpm start` and the bench run) writes the JavaScript only and keeps the
  // declarations of the last full build.
  clean: process.env.VECHE_BUILD_JS_ONLY !== "1",
  // Code two entries share lives once, in a chunk both import: without splitting, `index.js` and
  // `Phone.js` would each carry their own copy, and a program importing both would hold two of every
  // class, service key and schema. The chunks go under internal/, which no export reaches.
  splitting: true,
  esbuildOptions(options) {
    options.chunkNames = "internal/chunks/[name]-[hash]"
  },
  treeshake: true,
  esbuildPlugins: [
    {
      // `import { Effect, Layer } from "effect"` loads effect's barrel, and with it every one of its
      // 140 modules (Graph, Cron, Tx*, …): ~10 MB of an idle server's heap. The built JavaScript
      // imports the modules it names instead (EffectImports); the sources keep the barrel.
      name: "effect-module-imports",
      setup(build) {
        build.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => ({
          contents: EffectImports.rewrite(readFileSync(args.path, "utf8")),
          loader: "ts"
        }))
      }
    }
  ]
})
