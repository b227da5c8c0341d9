// One build for every package: ESM + .d.ts from src/index.ts into dist/ (run from the package folder).
import { existsSync } from "node:fs"
import { defineConfig } from "tsup"

export default defineConfig({
  // A package with a command line (the reference server) also ships its entry point.
  entry: ["src/index.ts", ...(existsSync("src/bin.ts") ? ["src/bin.ts"] : [])],
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
  splitting: false,
  treeshake: true
})
