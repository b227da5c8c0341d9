/**
 * The one behaviour suite every DeletionsRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set (requests refer to users, so users are made first).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import type { Deletion } from "../../src/Deletion.ts"
import { DeletionsRepo } from "../../src/DeletionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(16))
const T0 = Date.UTC(2026, 5, 1)
const at = (days: number) => DateTime.makeUnsafe(T0 + days * 86_400_000)

const newUser = () => insertUser(ids, "deletion")

const pending = (userId: Snowflake.Snowflake, requestedDay = 0): Deletion => ({
  userId,
  state: "pending",
  requestedAt: at(requestedDay),
  deleteAt: at(requestedDay + 14)
})

const millis = (deletion: Deletion) => ({
  ...deletion,
  requestedAt: DateTime.toEpochMillis(deletion.requestedAt),
  deleteAt: DateTime.toEpochMillis(deletion.deleteAt)
})

export const deletionsRepoContract = (it: Vitest.MethodsNonLive<DeletionsRepo | UsersRepo.UsersRepo>) => {
  it.effect("a request is kept while pending; cancel, then a new request replaces it", () =>
    Effect.gen(function* () {
      const repo = yield* DeletionsRepo
      const userId = yield* newUser()
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
      const first = yield* repo.request(pending(userId))
      expect(millis(first)).toEqual(millis(pending(userId)))
      // asking again while pending changes nothing
      expect(millis(yield* repo.request(pending(userId, 3)))).toEqual(millis(pending(userId)))
      const cancelled = Option.getOrThrow(yield* repo.cancel(userId))
      expect(cancelled.state).toBe("cancelled")
      expect(Option.isNone(yield* repo.cancel(userId))).toBe(true)
      expect(millis(yield* repo.request(pending(userId, 5)))).toEqual(millis(pending(userId, 5)))
    })
  )

  it.effect("due requests are found by their time; completing is once; cancelled ones are never due", () =>
    Effect.gen(function* () {
      const repo = yield* DeletionsRepo
      const soon = yield* newUser()
      const later = yield* newUser()
      const cancelled = yield* newUser()
      yield* repo.request(pending(soon, 100))
      yield* repo.request(pending(later, 101))
      yield* repo.request(pending(cancelled, 99))
      yield* repo.cancel(cancelled)
      const mine = (list: ReadonlyArray<Deletion>) => list.filter((d) => [soon, later, cancelled].includes(d.userId))
      expect(mine(yield* repo.due(at(113.9), 100))).toEqual([])
      expect(mine(yield* repo.due(at(114), 100)).map((d) => d.userId)).toEqual([soon])
      expect(mine(yield* repo.due(at(200), 100)).map((d) => d.userId)).toEqual([soon, later])
      expect(Option.isSome(yield* repo.nextDue)).toBe(true)
      expect(yield* repo.complete(soon)).toBe(true)
      expect(yield* repo.complete(soon)).toBe(false)
      expect(yield* repo.complete(cancelled)).toBe(false)
      expect(mine(yield* repo.due(at(200), 100)).map((d) => d.userId)).toEqual([later])
      expect(Option.getOrThrow(yield* repo.find(soon)).state).toBe("completed")
    })
  )
}
