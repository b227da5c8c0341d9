// One build for every package: ESM + .d.ts from src/index.ts into dist/ (run from the package folder).
import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  target: "node22",
  platform: "node",
  dts: { compilerOptions: { allowImportingTsExtensions: true, noEmit: false, composite: false } },
  sourcemap: true,
  clean: true,
  splitting: false,
  treeshake: true
})
