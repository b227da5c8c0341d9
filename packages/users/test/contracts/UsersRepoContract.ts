/**
 * The one behaviour suite every UsersRepo adapter must pass. It runs against the memory adapter on
 * every test run and against PostgreSQL when DATABASE_URL is set (adapters/postgres/test).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option } from "effect"
import type { User } from "../../src/User.ts"
import * as UsersRepo from "../../src/UsersRepo.ts"

// Each test makes its own names: the suite shares one repository (and one database schema).
let counter = 0
const uniqueName = (prefix: string) => `${prefix}_${process.pid}_${Date.now() % 1_000_000}_${++counter}`

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(7))

const newUser = Effect.fnUntraced(function* (username: string, displayName: string | null = null) {
  const id = yield* ids.next
  // Whole milliseconds: every store keeps at least that precision.
  const createdAt = DateTime.makeUnsafe(Math.floor(Date.now()))
  return { id, username, displayName, createdAt } satisfies User
})

export const usersRepoContract = (it: Vitest.MethodsNonLive<UsersRepo.UsersRepo>) => {
  it.effect("stores a user and reads it back by id and by username", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const user = yield* newUser(uniqueName("alice"), "Alice")
      yield* repo.insert(user)
      expect(yield* repo.findById(user.id)).toEqual(Option.some(user))
      expect(yield* repo.findByUsername(user.username)).toEqual(Option.some(user))
    })
  )

  it.effect("keeps an application's bot user marked as a bot; a person stays unmarked", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const bot = { ...(yield* newUser(uniqueName("helper_bot"), "Helper")), bot: true }
      const person = yield* newUser(uniqueName("person"))
      yield* repo.insert(bot)
      yield* repo.insert(person)
      expect(yield* repo.findById(bot.id)).toEqual(Option.some(bot))
      expect(yield* repo.findByUsername(bot.username)).toEqual(Option.some(bot))
      expect(Option.map(yield* repo.setDisplayName(bot.id, "Renamed"), (u) => u.bot)).toEqual(Option.some(true))
      expect(Option.map(yield* repo.findById(person.id), (u) => u.bot === true)).toEqual(Option.some(false))
    })
  )

  it.effect("keeps a null display name as null", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const user = yield* newUser(uniqueName("nameless"))
      yield* repo.insert(user)
      const found = yield* repo.findById(user.id)
      expect(Option.map(found, (u) => u.displayName)).toEqual(Option.some(null))
    })
  )

  it.effect("finds usernames without regard to letter case", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const user = yield* newUser(uniqueName("bob"))
      yield* repo.insert(user)
      const found = yield* repo.findByUsername(user.username.toUpperCase())
      expect(Option.map(found, (u) => u.id)).toEqual(Option.some(user.id))
    })
  )

  it.effect("answers none for unknown ids and names", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const ghost = yield* newUser(uniqueName("ghost"))
      expect(Option.isNone(yield* repo.findById(ghost.id))).toBe(true)
      expect(Option.isNone(yield* repo.findByUsername(ghost.username))).toBe(true)
    })
  )

  it.effect("refuses a username that differs only in letter case", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const first = yield* newUser(uniqueName("carol"))
      yield* repo.insert(first)
      const second = yield* newUser(first.username.toUpperCase())
      const error = yield* repo.insert(second).pipe(Effect.flip)
      expect(error._tag).toBe("UsernameTaken")
      expect(Option.isNone(yield* repo.findById(second.id))).toBe(true)
    })
  )

  it.effect("refuses a second user with the same id", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const first = yield* newUser(uniqueName("dave"))
      yield* repo.insert(first)
      const error = yield* repo.insert({ ...first, username: uniqueName("erin") }).pipe(Effect.flip)
      expect(error._tag).toBe("UserIdTaken")
    })
  )

  it.effect("lets exactly one of ten concurrent registrations of one name succeed", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const username = uniqueName("race")
      const users = yield* Effect.forEach(Array.from({ length: 10 }), () => newUser(username))
      const results = yield* Effect.forEach(users, (user) => Effect.result(repo.insert(user)), {
        concurrency: "unbounded"
      })
      expect(results.filter((r) => r._tag === "Success")).toHaveLength(1)
      expect(results.filter((r) => r._tag === "Failure")).toHaveLength(9)
    })
  )

  it.effect("sets and clears the display name, and nothing else", () =>
    Effect.gen(function* () {
      const repo = yield* UsersRepo.UsersRepo
      const user = yield* newUser(uniqueName("dn"), "Shown")
      yield* repo.insert(user)
      const renamed = Option.getOrThrow(yield* repo.setDisplayName(user.id, "Другое имя"))
      expect(renamed).toEqual({ ...user, displayName: "Другое имя" })
      expect(Option.getOrThrow(yield* repo.setDisplayName(user.id, null)).displayName).toBeNull()
      expect(Option.getOrThrow(yield* repo.findById(user.id)).displayName).toBeNull()
      expect(Option.isNone(yield* repo.setDisplayName("1234567890123456789" as Snowflake.Snowflake, "x"))).toBe(true)
    })
  )
}
