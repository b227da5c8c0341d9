/**
 * The one behaviour suite every ApplicationsRepo adapter must pass. On memory in every run, on
 * PostgreSQL when DATABASE_URL is set (applications refer to their owner, so owners are made
 * through UsersRepo).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import type { Application } from "../../src/Application.ts"
import { ApplicationsRepo } from "../../src/ApplicationsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(15))
let counter = 0
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))

const newOwner = () => insertUser(ids, "appowner")

const application = (ownerId: Snowflake.Snowflake, overrides: Partial<Application> = {}) =>
  Effect.map(
    ids.next,
    (id): Application => ({
      id,
      ownerId,
      name: `App ${++counter}`,
      description: "",
      icon: null,
      botPublic: true,
      botRequireCodeGrant: false,
      flags: 0,
      redirectUris: [],
      botTokenDigest: null,
      secretDigest: null,
      createdAt: T0,
      ...overrides
    })
  )

/** A digest unique to this process and run (the column is unique on PostgreSQL). */
const digest = () => `apps-contract-${process.pid}-${Date.now()}-${++counter}`

export const applicationsRepoContract = (it: Vitest.MethodsNonLive<ApplicationsRepo | UsersRepo.UsersRepo>) => {
  it.effect("inserts, finds, lists an owner's applications oldest first, and removes", () =>
    Effect.gen(function* () {
      const repo = yield* ApplicationsRepo
      const owner = yield* newOwner()
      const other = yield* newOwner()
      const first = yield* application(owner, { redirectUris: ["https://a.example/cb"] })
      const second = yield* application(owner)
      const theirs = yield* application(other)
      for (const app of [first, second, theirs]) yield* repo.insert(app, 25)
      expect(yield* repo.findById(first.id)).toEqual(Option.some(first))
      expect((yield* repo.listByOwner(owner)).map((a) => a.id)).toEqual([first.id, second.id])
      expect(yield* repo.remove(first.id)).toBe(true)
      expect(yield* repo.remove(first.id)).toBe(false)
      expect(yield* repo.findById(first.id)).toEqual(Option.none())
      expect((yield* repo.listByOwner(owner)).map((a) => a.id)).toEqual([second.id])
    })
  )

  it.effect("refuses an insert past the owner's limit, counting only that owner's", () =>
    Effect.gen(function* () {
      const repo = yield* ApplicationsRepo
      const owner = yield* newOwner()
      const other = yield* newOwner()
      yield* repo.insert(yield* application(other), 2)
      yield* repo.insert(yield* application(owner), 2)
      yield* repo.insert(yield* application(owner), 2)
      const refused = yield* Effect.flip(repo.insert(yield* application(owner), 2))
      expect(refused._tag).toBe("ApplicationLimitReached")
      expect(yield* repo.listByOwner(owner)).toHaveLength(2)
      // concurrent inserts at the last place: exactly one passes
      const last = yield* newOwner()
      yield* repo.insert(yield* application(last), 2)
      const raced = yield* Effect.all(
        [yield* application(last), yield* application(last), yield* application(last)].map((app) =>
          Effect.result(repo.insert(app, 2))
        ),
        { concurrency: "unbounded" }
      )
      expect(raced.filter((r) => r._tag === "Success")).toHaveLength(1)
      expect(yield* repo.listByOwner(last)).toHaveLength(2)
    })
  )

  it.effect("applies changes, keeping what a change does not name; unknown ids answer none", () =>
    Effect.gen(function* () {
      const repo = yield* ApplicationsRepo
      const app = yield* application(yield* newOwner(), { icon: "abc" })
      yield* repo.insert(app, 25)
      const changed = yield* repo.update(app.id, {
        name: "Renamed",
        redirectUris: ["https://b.example/cb", "http://localhost/cb"],
        botRequireCodeGrant: true,
        flags: 1 << 15
      })
      expect(changed).toEqual(
        Option.some({
          ...app,
          name: "Renamed",
          redirectUris: ["https://b.example/cb", "http://localhost/cb"],
          botRequireCodeGrant: true,
          flags: 1 << 15
        })
      )
      const cleared = yield* repo.update(app.id, { icon: null, description: "d", botPublic: false })
      expect(Option.map(cleared, (a) => [a.icon, a.description, a.botPublic, a.name, a.flags])).toEqual(
        Option.some([null, "d", false, "Renamed", 1 << 15])
      )
      expect(yield* repo.update(app.id, {})).toEqual(cleared)
      expect(yield* repo.update(yield* ids.next, { name: "x" })).toEqual(Option.none())
    })
  )

  it.effect("finds an application by its bot token's digest; a new digest replaces the old one", () =>
    Effect.gen(function* () {
      const repo = yield* ApplicationsRepo
      const app = yield* application(yield* newOwner())
      yield* repo.insert(app, 25)
      const first = digest()
      const second = digest()
      expect(yield* repo.findByBotToken(first)).toEqual(Option.none())
      expect(yield* repo.setBotToken(app.id, first)).toBe(true)
      expect(Option.map(yield* repo.findByBotToken(first), (a) => a.id)).toEqual(Option.some(app.id))
      expect(yield* repo.setBotToken(app.id, second)).toBe(true)
      expect(yield* repo.findByBotToken(first)).toEqual(Option.none())
      expect(Option.map(yield* repo.findByBotToken(second), (a) => a.id)).toEqual(Option.some(app.id))
      expect(yield* repo.setSecret(app.id, digest())).toBe(true)
      expect(Option.map(yield* repo.findById(app.id), (a) => a.secretDigest !== null)).toEqual(Option.some(true))
      expect(yield* repo.setBotToken(yield* ids.next, digest())).toBe(false)
      expect(yield* repo.setSecret(yield* ids.next, digest())).toBe(false)
      // a removed application's token is nobody's
      yield* repo.remove(app.id)
      expect(yield* repo.findByBotToken(second)).toEqual(Option.none())
    })
  )
}
