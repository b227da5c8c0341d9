/**
 * `@veche/api` is the contract a typed client or a documentation tool imports: loading it must not
 * load a native addon, a driver, the server's implementations, a domain's barrel (which brings its
 * services and their drivers' ports) or any `node:*` module (`node:crypto` and the like: the
 * contract is schemas). The import runs in a fresh `node` (vitest's own process has loaded
 * everything already), and the probe is shown to catch each kind of offence on modules that commit
 * it, so a passing run means something.
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
 * Outside the workspace's packages only `effect` may load: any other dependency is a driver
 * (argon2, sharp, fflate, pg…) or a tool. `adapters/*` and `@veche/rest` are implementations. Of
 * the domains, single modules through their subpath exports (`@veche/auth/Phone`), never a barrel
 * (`@veche/errors`' is the error catalogue, data itself).
 */
const isForbidden = (url: string): boolean =>
  /\/node_modules\//.test(url)
    ? !/\/node_modules\/(?:\.pnpm\/effect@[^/]+\/node_modules\/)?effect\//.test(url)
    : /\/(?:adapters\/[^/]+|packages\/rest)\/src\//.test(url) ||
      (/\/packages\/[^/]+\/src\/index\.ts$/.test(url) && !/\/packages\/(?:api|errors)\/src\/index\.ts$/.test(url))

const probe = (specifier: string, cwd: string) =>
  Effect.callback<Report, Error>((resume) => {
    execFile(process.execPath, [PROBE, specifier], { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      resume(
        error === null ? Effect.succeed(JSON.parse(stdout) as Report) : Effect.fail(new Error(`${error}\n${stderr}`))
      )
    )
  })

/** What a pure contract must not load. */
const offences = (report: Report): Array<string> => [
  ...report.addons.map((addon) => `native addon ${addon}`),
  ...report.resolved.filter(({ url }) => url.endsWith(".node")).map(({ url }) => `native addon ${url}`),
  ...report.resolved
    .filter(({ url }) => url.startsWith("node:") || isForbidden(url))
    .map(({ url, parent }) => `${url} (from ${parent})`)
]

describe("@veche/api loads as pure data", () => {
  it.effect(
    "importing it loads no native addon, driver, implementation, domain barrel or node:* module",
    () =>
      Effect.gen(function* () {
        const report = yield* probe("@veche/api", API_DIR)
        // The probe saw the contract itself (not an empty graph).
        expect(report.resolved.map(({ url }) => url)).toContain(`file://${API_DIR}src/RestApi.ts`)
        expect(offences(report)).toEqual([])
      }),
    60_000
  )

  it.effect(
    "the probe catches a native addon (@veche/argon2), and an implementation, a barrel and node:crypto (@veche/rest)",
    () =>
      Effect.gen(function* () {
        const argon2 = offences(yield* probe("@veche/argon2", ROOT))
        expect(argon2.some((offence) => offence.startsWith("native addon"))).toBe(true)
        const rest = offences(yield* probe("@veche/rest", ROOT))
        expect(rest.some((offence) => offence.includes("/packages/rest/src/"))).toBe(true)
        expect(rest.some((offence) => offence.includes("/packages/auth/src/index.ts"))).toBe(true)
        expect(rest.some((offence) => offence.startsWith("node:crypto"))).toBe(true)
      }),
    60_000
  )
})
