/** The package-boundary lint (`pnpm run check:bounds`): it finds what a file imports and flags what crosses a boundary. */
import { describe, expect, it } from "@effect/vitest"
import { applyAllowlist, importsOf, manifestProblems, problemsIn, type Workspace } from "../scripts/check-bounds.ts"

const workspace: Workspace = { adapters: new Set(["@veche/postgres", "@veche/argon2", "@veche/test-host"]) }

// Fixtures are source text inside strings: the lint itself sees no import here.
const VIOLATING = [
  'import { UsersRepo } from "@veche/users"',
  'import type { AccountsRepo as Accounts } from "@veche/auth"',
  'import * as ProfilesRepo from "@veche/users/ProfilesRepo"',
  'import { PgUsersRepo } from "@veche/postgres"',
  'import { Router } from "@veche/rest"',
  'import { Veche } from "@veche/kit"',
  'import lodash from "lodash"',
  'type Later = import("@veche/users").UsersRepo.UsersRepo',
  'export { RelationshipsRepo } from "@veche/users"'
].join("\n")

const CLEAN = [
  'import { PublicUsers } from "@veche/users"',
  'import { Effect, Layer } from "effect"',
  'import { SecureRandom } from "effect/crypto"',
  'import { GuildsRepo } from "./GuildsRepo.ts"',
  'import { createHash } from "node:crypto"'
].join("\n")

const check = (owner: string, file: string, text: string) =>
  problemsIn(workspace, owner, file, importsOf(file, text)).map(({ line }) => line)

describe("check-bounds", () => {
  it("finds imports, type imports, import() types and re-exports with their bindings", () => {
    expect(importsOf("fixture.ts", VIOLATING).map(({ line, module }) => `${line} ${module}`)).toEqual([
      "1 @veche/users",
      "2 @veche/auth",
      "3 @veche/users/ProfilesRepo",
      "4 @veche/postgres",
      "5 @veche/rest",
      "6 @veche/kit",
      "7 lodash",
      "8 @veche/users",
      "9 @veche/users"
    ])
  })

  it("flags another domain's repository port, an adapter, rest, kit and a foreign package in a domain", () => {
    const report = check("moderation", "packages/moderation/src/Fixture.ts", VIOLATING)
    const expected = [
      "repository port UsersRepo",
      "repository port AccountsRepo",
      "repository port ProfilesRepo",
      "the adapter @veche/postgres",
      "@veche/rest, which sits above it",
      "@veche/kit, which sits above it",
      "imports lodash",
      "repository port UsersRepo",
      "repository port RelationshipsRepo"
    ]
    expect(report).toHaveLength(expected.length)
    expected.forEach((why, index) => {
      expect(report[index]?.startsWith(`packages/moderation/src/Fixture.ts:${index + 1}: `)).toBe(true)
      expect(report[index]).toContain(why)
    })
  })

  it("passes services, effect, relative files and Node built-ins in a domain, and its own repositories", () => {
    expect(check("guilds", "packages/guilds/src/Fixture.ts", CLEAN)).toEqual([])
    expect(check("users", "packages/users/src/Fixture.ts", 'import { UsersRepo } from "@veche/users"')).toEqual([])
  })

  it("keeps the contract free of Node built-ins, and the kit free of adapters only", () => {
    expect(check("api", "packages/api/src/Fixture.ts", CLEAN)).toHaveLength(1)
    const report = check("kit", "packages/kit/src/Fixture.ts", VIOLATING)
    expect(report).toHaveLength(1)
    expect(report[0]).toContain(":4: @veche/kit imports the adapter @veche/postgres")
  })

  it("lets an allowlist entry cover one file and binding, and reports a stale entry", () => {
    const problems = problemsIn(
      workspace,
      "auth",
      "a.ts",
      importsOf("a.ts", 'import { UsersRepo } from "@veche/users"')
    )
    expect(applyAllowlist(problems, [{ file: "a.ts", binding: "UsersRepo", reason: "fixture" }])).toEqual([])
    expect(applyAllowlist(problems, [{ file: "b.ts", binding: "UsersRepo", reason: "fixture" }])).toEqual([
      problems[0]?.line,
      "b.ts: allowlist entry for UsersRepo matches nothing any more: remove it"
    ])
    expect(problems[0]?.line).toContain("a.ts:1: @veche/auth names @veche/users's repository port UsersRepo")
  })

  it("flags a domain's package.json depending on anything but effect and @veche domains", () => {
    const manifest = {
      dependencies: { "@veche/users": "workspace:*", "@veche/postgres": "workspace:*", pg: "^8" },
      peerDependencies: { effect: "^4.1.0" }
    }
    expect(manifestProblems(workspace, "auth", "packages/auth/package.json", manifest)).toEqual([
      "packages/auth/package.json: dependencies has @veche/postgres: a domain depends on effect and @veche/* domains only",
      "packages/auth/package.json: dependencies has pg: a domain depends on effect and @veche/* domains only"
    ])
    expect(manifestProblems(workspace, "kit", "packages/kit/package.json", manifest)).toEqual([])
  })

  it("lets web depend on the files it serves (uplot), and no other package", () => {
    const manifest = { dependencies: { uplot: "1.6.32", pg: "^8" } }
    expect(manifestProblems(workspace, "web", "packages/web/package.json", manifest)).toEqual([
      "packages/web/package.json: dependencies has pg: a domain depends on effect and @veche/* domains only"
    ])
    expect(manifestProblems(workspace, "auth", "packages/auth/package.json", manifest)).toEqual([
      "packages/auth/package.json: dependencies has uplot: a domain depends on effect and @veche/* domains only",
      "packages/auth/package.json: dependencies has pg: a domain depends on effect and @veche/* domains only"
    ])
  })
})
