/**
 * `@veche/api` is the contract a typed client or a documentation tool imports: loading it must not
 * load a native addon, a driver, the server's implementations or `node:*` modules of its own. The
 * import runs in a fresh `node` (vitest's own process has loaded everything already), and the probe
 * is shown to catch each kind of offence on modules that commit it, so a passing run means something.
 */
import { execFile } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Report } from "./support/LoadProbe.ts"

const PROBE = fileURLToPath(new URL("./support/LoadProbe.ts", import.meta.url))
const API_DIR = fileURLToPath(new URL("..", import.meta.url))
const ROOT = fileURLToPath(new URL("../../..", import.meta.url))

/**
 * Outside the domain packages, only `effect` may load: any other dependency is a driver (argon2,
 * sharp, fflate, pg…) or a tool, and `adapters/*` and `@veche/rest` are implementations.
 */
const isForbidden = (url: string): boolean =>
  /\/node_modules\//.test(url)
    ? !/\/node_modules\/(?:\.pnpm\/effect@[^/]+\/node_modules\/)?effect\//.test(url)
    : /\/(?:adapters\/[^/]+|packages\/rest)\/src\//.test(url)

const probe = (specifier: string, cwd: string) =>
  Effect.callback<Report, Error>((resume) => {
    execFile(process.execPath, [PROBE, specifier], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(
        error === null ? Effect.succeed(JSON.parse(stdout) as Report) : Effect.fail(new Error(`${error}\n${stderr}`))
      )
    )
  })

/** What a pure contract must not do; `ownDir` is the package whose own files may import no `node:*` module. */
const offences = (report: Report, ownDir: string): Array<string> => [
  ...report.addons.map((addon) => `native addon ${addon}`),
  ...report.resolved.filter(({ url }) => url.endsWith(".node")).map(({ url }) => `native addon ${url}`),
  ...report.resolved.filter(({ url }) => isForbidden(url)).map(({ url, parent }) => `${url} (from ${parent})`),
  ...report.resolved
    .filter(({ url, parent }) => url.startsWith("node:") && parent?.startsWith(`file://${ownDir}src/`))
    .map(({ url, parent }) => `${url} (from ${parent})`)
]

describe("@veche/api loads as pure data", () => {
  it.effect(
    "importing it loads no native addon, driver, implementation package or node:* module of its own",
    () =>
      Effect.gen(function* () {
        const report = yield* probe("@veche/api", API_DIR)
        // The probe saw the contract itself (not an empty graph).
        expect(report.resolved.map(({ url }) => url)).toContain(`file://${API_DIR}src/RestApi.ts`)
        expect(offences(report, API_DIR)).toEqual([])
      }),
    60_000
  )

  it.effect(
    "the probe catches a native addon (@veche/argon2), an implementation package and a node:crypto import (@veche/rest)",
    () =>
      Effect.gen(function* () {
        const argon2 = yield* probe("@veche/argon2", ROOT)
        expect(offences(argon2, `${ROOT}adapters/argon2/`).some((offence) => offence.startsWith("native addon"))).toBe(
          true
        )
        const rest = yield* probe("@veche/rest", ROOT)
        const restDir = `${ROOT}packages/rest/`
        expect(offences(rest, restDir).some((offence) => offence.startsWith("node:crypto"))).toBe(true)
        expect(offences(rest, API_DIR).some((offence) => offence.includes("/packages/rest/src/"))).toBe(true)
      }),
    60_000
  )
})
