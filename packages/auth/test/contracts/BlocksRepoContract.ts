/**
 * The one behaviour suite every BlocksRepo adapter must pass, together with the SessionsRepo beside
 * it: an access-token lookup carries the account's block. On memory in every run, on PostgreSQL
 * when DATABASE_URL is set (blocks refer to users, so users are made through UsersRepo).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import type { Block } from "../../src/Block.ts"
import { BlocksRepo } from "../../src/BlocksRepo.ts"
import { SessionsRepo } from "../../src/SessionsRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(14))
let counter = 0
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
const at = (ms: number) => DateTime.makeUnsafe(Date.UTC(2026, 5, 1) + ms)
const DAY = 86_400_000

const newUser = () => insertUser(ids, "block")

const block = (userId: Snowflake.Snowflake, overrides: Partial<Block> = {}): Block => ({
  userId,
  reason: "spam",
  until: at(7 * DAY),
  blockedBy: null,
  createdAt: T0,
  ...overrides
})

const session = Effect.fnUntraced(function* (userId: Snowflake.Snowflake) {
  const digest = `blocks-contract-${process.pid}-${Date.now()}-${++counter}`
  yield* (yield* SessionsRepo).create(
    {
      id: yield* ids.next,
      userId,
      client: { userAgent: null, address: null, country: null },
      createdAt: T0,
      lastUsedAt: T0,
      expiresAt: at(30 * DAY),
      revokedAt: null,
      passwordChangedAt: null
    },
    { access: { digest, expiresAt: at(DAY) }, refresh: { digest: `${digest}-refresh` } }
  )
  return digest
})

export const blocksRepoContract = (it: Vitest.MethodsNonLive<BlocksRepo | SessionsRepo | UsersRepo.UsersRepo>) => {
  it.effect("sets, replaces and lifts an account's block", () =>
    Effect.gen(function* () {
      const repo = yield* BlocksRepo
      const userId = yield* newUser()
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
      const moderator = yield* ids.next
      yield* repo.put(block(userId, { blockedBy: moderator }))
      const found = Option.getOrThrow(yield* repo.find(userId))
      expect(found).toMatchObject({ userId, reason: "spam", blockedBy: moderator })
      expect(DateTime.toEpochMillis(found.until ?? T0)).toBe(DateTime.toEpochMillis(at(7 * DAY)))
      yield* repo.put(block(userId, { reason: "fraud", until: null }))
      expect(Option.getOrThrow(yield* repo.find(userId))).toMatchObject({
        reason: "fraud",
        until: null,
        blockedBy: null
      })
      expect(yield* repo.remove(userId)).toBe(true)
      expect(yield* repo.remove(userId)).toBe(false)
      expect(Option.isNone(yield* repo.find(userId))).toBe(true)
    })
  )

  it.effect("an access-token lookup carries the account's block, and only that account's", () =>
    Effect.gen(function* () {
      const repo = yield* BlocksRepo
      const sessions = yield* SessionsRepo
      const blocked = yield* newUser()
      const other = yield* newUser()
      const blockedToken = yield* session(blocked)
      const otherToken = yield* session(other)
      yield* repo.put(block(blocked, { reason: "abuse" }))
      const lookup = yield* sessions.findAccess(blockedToken, at(1000))
      expect(lookup._tag).toBe("Valid")
      if (lookup._tag === "Valid") expect(lookup.block).toMatchObject({ userId: blocked, reason: "abuse" })
      const clean = yield* sessions.findAccess(otherToken, at(1000))
      if (clean._tag !== "Valid") return expect.unreachable()
      expect(clean.block).toBeNull()
      yield* repo.remove(blocked)
      const lifted = yield* sessions.findAccess(blockedToken, at(2000))
      if (lifted._tag !== "Valid") return expect.unreachable()
      expect(lifted.block).toBeNull()
    })
  )
}
