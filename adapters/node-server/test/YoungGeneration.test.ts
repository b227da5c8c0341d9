import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import * as YoungGeneration from "../src/YoungGeneration.ts"

const MB = 1024 * 1024
const FIXTURE = path.join(import.meta.dirname, "fixtures/young-generation.ts")

/** The fixture's young-generation sizes, in a Node process of its own with the server's semi-space bound. */
const sizes = (
  argument: "hold" | "none"
): { readonly start: number; readonly held: number; readonly released: number } =>
  JSON.parse(execFileSync(process.execPath, ["--max-semi-space-size=8", FIXTURE, argument], { encoding: "utf8" }))

describe("YoungGeneration", () => {
  it("keeps V8's young generation at its start size while held, and lets it grow once released", () => {
    // Without `hold`, what the fixture keeps alive grows it to its bound at once: what the server's
    // start did. This half fails if V8 stops growing on survival, and the other half then proves nothing.
    const free = sizes("none")
    expect(free.held).toBe(16 * MB)
    // Held, the same allocations leave it well below its bound (1 MB, V8's smallest, on a quiet
    // machine; V8 still grew it a step now and then on a busy one, once to 8.5 MB beside a whole test
    // run); released, it grows as before. This fails if V8 stops reading the growth factor when it grows.
    const held = sizes("hold")
    expect(held.held, JSON.stringify(held)).toBeLessThan(16 * MB)
    expect(held.released).toBe(16 * MB)
  })

  it("leaves a growth factor the operator set on Node's command line alone (NODE_OPTIONS refuses it)", () => {
    expect(YoungGeneration.setByOperator(["--semi-space-growth-factor=4"])).toBe(true)
    expect(YoungGeneration.setByOperator(["--max-semi-space-size=8", "--semi_space_growth_factor=3"])).toBe(true)
    expect(YoungGeneration.setByOperator(["--max-semi-space-size=8", "--heap-growing-percent=30"])).toBe(false)
    expect(YoungGeneration.setByOperator([])).toBe(false)
  })
})
