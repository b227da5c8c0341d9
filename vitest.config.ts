import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "adapters/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Under CI also a machine-readable report, from which .ci/run prints its summary line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    ...(process.env.CI ? { outputFile: { json: ".ci/test-results.json" } } : {})
  }
})
