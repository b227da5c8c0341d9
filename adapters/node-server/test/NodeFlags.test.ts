/** The server's Node flags are written in three places that cannot import them; they must agree. */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { NODE_FLAGS } from "../src/NodeFlags.ts"

const ROOT = path.resolve(import.meta.dirname, "../../..")

describe("NodeFlags", () => {
  it("pnpm start and the bin's shebang run Node with exactly NODE_FLAGS", () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
      scripts: Record<string, string>
    }
    expect(manifest.scripts.start).toBe(`node ${NODE_FLAGS.join(" ")} adapters/node-server/src/bin.ts`)
    const shebang = readFileSync(path.join(ROOT, "adapters/node-server/src/bin.ts"), "utf8").split("\n")[0]
    expect(shebang).toBe(`#!/usr/bin/env -S node ${NODE_FLAGS.join(" ")}`)
  })
})
