/**
 * The one behaviour suite every DataExportsRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set (exports refer to users, so users are made first).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import type { DataExport } from "../../src/DataExport.ts"
import { DataExportsRepo } from "../../src/DataExportsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(17))
const counter = 0
const T0 = Date.UTC(2026, 5, 1)
const at = (minutes: number) => DateTime.makeUnsafe(T0 + minutes * 60_000)

const newUser = () => insertUser(ids, "export")

const preparing = Effect.fnUntraced(function* (userId: Snowflake.Snowflake, minute = 0) {
  const exported: DataExport = {
    id: yield* ids.next,
    userId,
    state: "preparing",
    requestedAt: at(minute),
    readyAt: null,
    expiresAt: null,
    sizeBytes: null
  }
  return exported
})

export const dataExportsRepoContract = (it: Vitest.MethodsNonLive<DataExportsRepo | UsersRepo.UsersRepo>) => {
  it.effect("one export is prepared at a time per user, even under concurrency", () =>
    Effect.gen(function* () {
      const repo = yield* DataExportsRepo
      const userId = yield* newUser()
      const attempts = yield* Effect.all([preparing(userId), preparing(userId), preparing(userId)])
      const results = yield* Effect.all(
        attempts.map((exported) => Effect.result(repo.create(exported))),
        { concurrency: "unbounded" }
      )
      expect(results.filter((result) => result._tag === "Success")).toHaveLength(1)
      const latest = Option.getOrThrow(yield* repo.latest(userId))
      expect(latest.state).toBe("preparing")
    })
  )

  it.effect("a claim leases an export once until the lease runs out; ready, link, expiry", () =>
    Effect.gen(function* () {
      const repo = yield* DataExportsRepo
      const userId = yield* newUser()
      const exported = yield* preparing(userId)
      yield* repo.create(exported)
      const mine = (list: ReadonlyArray<DataExport>) => list.filter((e) => e.id === exported.id)
      expect(mine(yield* repo.claim(at(1), at(11), 100))).toHaveLength(1)
      expect(mine(yield* repo.claim(at(2), at(12), 100))).toHaveLength(0)
      expect(mine(yield* repo.claim(at(11), at(21), 100))).toHaveLength(1)
      yield* repo.markReady(exported.id, at(12), at(100), 1234)
      expect(mine(yield* repo.claim(at(30), at(40), 100))).toHaveLength(0)
      expect(Option.getOrThrow(yield* repo.latest(userId))).toMatchObject({ state: "ready", sizeBytes: 1234 })
      // a second export may now be asked for
      yield* repo.create(yield* preparing(userId, 13))

      const digest = `${"ab".repeat(32)}${counter}`
      yield* repo.setLink(exported.id, digest, at(72))
      expect(Option.getOrThrow(yield* repo.findByLink(digest, at(71))).id).toBe(exported.id)
      expect(Option.isNone(yield* repo.findByLink(digest, at(72)))).toBe(true)
      expect(mine(yield* repo.expiring(at(99)))).toHaveLength(0)
      expect(mine(yield* repo.expiring(at(100)))).toHaveLength(1)
      yield* repo.markExpired(exported.id)
      expect(mine(yield* repo.expiring(at(200)))).toHaveLength(0)
      expect(Option.isNone(yield* repo.findByLink(digest, at(71)))).toBe(true)
    })
  )
}
