/**
 * The one behaviour suite every ProfilesRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set (profiles refer to users, so users are made first).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { Effect } from "effect"
import { DEFAULT } from "../../src/Profile.ts"
import { ProfilesRepo } from "../../src/ProfilesRepo.ts"
import type { UsersRepo } from "../../src/UsersRepo.ts"
import { insertUser } from "../support/TestUsers.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(15))

const newUser = () => insertUser(ids, "profile")

export const profilesRepoContract = (it: Vitest.MethodsNonLive<ProfilesRepo | UsersRepo>) => {
  it.effect("a user without a stored profile has the defaults", () =>
    Effect.gen(function* () {
      expect(yield* (yield* ProfilesRepo).get(yield* newUser())).toEqual(DEFAULT)
    })
  )

  it.effect("a change sets the given fields only and answers the whole profile", () =>
    Effect.gen(function* () {
      const repo = yield* ProfilesRepo
      const userId = yield* newUser()
      const first = yield* repo.update(userId, { bio: "hello", customStatus: { text: "away" } })
      expect(first).toEqual({ ...DEFAULT, bio: "hello", customStatus: { text: "away" } })
      const second = yield* repo.update(userId, { status: "dnd", guildOrder: ["2", "1"], bio: undefined })
      expect(second).toEqual({
        ...DEFAULT,
        bio: "hello",
        customStatus: { text: "away" },
        status: "dnd",
        guildOrder: ["2", "1"]
      })
      const cleared = yield* repo.update(userId, { bio: null, customStatus: null, avatar: "a_0123abcd" })
      expect(cleared).toMatchObject({ bio: null, customStatus: null, avatar: "a_0123abcd", status: "dnd" })
      expect(yield* repo.get(userId)).toEqual(cleared)
      expect(yield* repo.update(userId, {})).toEqual(cleared)
    })
  )

  it.effect("concurrent changes of different fields both land", () =>
    Effect.gen(function* () {
      const repo = yield* ProfilesRepo
      const userId = yield* newUser()
      yield* Effect.all([repo.update(userId, { bio: "mine" }), repo.update(userId, { status: "idle" })], {
        concurrency: "unbounded"
      })
      expect(yield* repo.get(userId)).toMatchObject({ bio: "mine", status: "idle" })
    })
  )
}
