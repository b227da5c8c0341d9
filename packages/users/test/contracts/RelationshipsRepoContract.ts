/**
 * The one behaviour suite every RelationshipsRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set.
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect } from "effect"
import { BLOCKED, FRIEND, OUTGOING } from "../../src/Relationship.ts"
import { RelationshipsRepo } from "../../src/RelationshipsRepo.ts"
import type { UsersRepo } from "../../src/UsersRepo.ts"
import { insertUser } from "../support/TestUsers.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(18))
const at = (day: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1 + day))

export const relationshipsRepoContract = (it: Vitest.MethodsNonLive<RelationshipsRepo | UsersRepo>) => {
  it.effect("lists a user's own rows in order; setting replaces; removing answers whether it was there", () =>
    Effect.gen(function* () {
      const repo = yield* RelationshipsRepo
      const [me, ann, bob] = [
        yield* insertUser(ids, "rel"),
        yield* insertUser(ids, "rel"),
        yield* insertUser(ids, "rel")
      ]
      expect(yield* repo.list(me)).toEqual([])
      yield* repo.put({ userId: me, otherId: ann, type: OUTGOING, nickname: null, since: at(1) })
      yield* repo.put({ userId: me, otherId: bob, type: BLOCKED, nickname: null, since: at(2) })
      yield* repo.put({ userId: ann, otherId: me, type: FRIEND, nickname: "me", since: at(3) })
      yield* repo.put({ userId: me, otherId: ann, type: FRIEND, nickname: "Ann", since: at(0) })
      const mine = yield* repo.list(me)
      expect(mine.map((row) => [row.otherId, row.type, row.nickname])).toEqual([
        [ann, FRIEND, "Ann"],
        [bob, BLOCKED, null]
      ])
      expect(DateTime.toEpochMillis(mine[0]?.since ?? at(9))).toBe(DateTime.toEpochMillis(at(0)))
      expect(yield* repo.remove(me, bob)).toBe(true)
      expect(yield* repo.remove(me, bob)).toBe(false)
      expect((yield* repo.list(me)).map((row) => row.otherId)).toEqual([ann])
      expect((yield* repo.list(ann)).map((row) => row.otherId)).toEqual([me])
    })
  )
}
