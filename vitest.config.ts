import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

export default defineConfig({
  // The repository's shared test support (test/support) as `~/test/support/…`, the alias tsconfig.json
  // declares under `paths`, so tests in adapters/ and packages/ need no `../../../`.
  resolve: { alias: { "~/test/support": fileURLToPath(new URL("./test/support", import.meta.url)) } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "adapters/*/test/**/*.test.ts",
      "examples/*/test/**/*.test.ts",
      "test/**/*.test.ts"
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Under CI also a machine-readable report, from which .ci/run prints its summary line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    ...(process.env.CI ? { outputFile: { json: ".ci/test-results.json" } } : {})
  }
})
