/** The server's Node flags are written in places that cannot import them; they must agree. */
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { NODE_ENV_WORDS, NODE_FLAGS, WORKSPACE_BIN, WORKSPACE_FLAGS } from "../src/NodeFlags.ts"

const ROOT = path.resolve(import.meta.dirname, "../../..")

const readJson = <A>(file: string): A => JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as A

describe("NodeFlags", () => {
  it("pnpm start builds the JavaScript and runs the built bin with exactly NODE_ENV and WORKSPACE_FLAGS", () => {
    const manifest = readJson<{ scripts: Record<string, string> }>("package.json")
    expect(manifest.scripts.start).toBe(
      `pnpm run build:js && exec env ${NODE_ENV_WORDS.join(" ")} node ${WORKSPACE_FLAGS.join(" ")} ${WORKSPACE_BIN}`
    )
    expect(manifest.scripts.bench).toBe("pnpm run build:js && node bench/run.ts && node bench/gateway.ts")
  })

  it("the bin's shebang runs Node with exactly NODE_ENV and NODE_FLAGS", () => {
    const shebang = readFileSync(path.join(ROOT, "adapters/node-server/src/bin.ts"), "utf8").split("\n")[0]
    expect(shebang).toBe(`#!/usr/bin/env -S ${NODE_ENV_WORDS.join(" ")} node ${NODE_FLAGS.join(" ")}`)
  })

  it("every package the server loads resolves to its build under the veche-dist condition", () => {
    const server = readJson<{ dependencies: Record<string, string> }>("adapters/node-server/package.json")
    const workspace = Object.keys(server.dependencies).filter((name) => name.startsWith("@veche/"))
    expect(workspace.length).toBeGreaterThan(5)
    const folders = ["adapters/node-server", ...workspace.map((name) => folderOf(name))]
    for (const folder of folders) {
      const manifest = readJson<{ exports: Record<string, Record<string, string>> }>(`${folder}/package.json`)
      expect(manifest.exports["."]?.["veche-dist"], folder).toBe("./dist/index.js")
    }
  })
})

/** Where a workspace package lives (packages/<name> or adapters/<name>). */
const folderOf = (name: string): string => {
  const short = name.replace("@veche/", "")
  const folder = ["packages", "adapters"]
    .map((parent) => `${parent}/${short}`)
    .find((candidate) => existsSync(path.join(ROOT, candidate, "package.json")))
  if (folder === undefined) throw new Error(`no workspace folder for ${name}`)
  return folder
}
