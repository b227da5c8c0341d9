// One build for every package: ESM + .d.ts from src/index.ts into dist/ (run from the package folder).
import { existsSync } from "node:fs"
import { defineConfig } from "tsup"

export default defineConfig({
  // A package with a command line (the reference server) also ships its entry point.
  entry: ["src/index.ts", ...(existsSync("src/bin.ts") ? ["src/bin.ts"] : [])],
  format: ["esm"],
  target: "node22",
  platform: "node",
  dts: { compilerOptions: { allowImportingTsExtensions: true, noEmit: false, composite: false } },
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true
})
