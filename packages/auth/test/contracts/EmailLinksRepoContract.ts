/**
 * The one behaviour suite every EmailLinksRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set. Links refer to users, so users are made through UsersRepo.
 */
import { randomBytes } from "node:crypto"
import { expect, type Vitest } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Duration, Effect, Option } from "effect"
import type { EmailLink, Purpose } from "../../src/EmailLink.ts"
import { EmailLinksRepo } from "../../src/EmailLinksRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(13))
const counter = 0
const NOW = DateTime.makeUnsafe(Date.UTC(2026, 5, 1, 12))
const later = (duration: Duration.Input) =>
  DateTime.add(NOW, { milliseconds: Duration.toMillis(Duration.fromInputUnsafe(duration)) })

const newUser = () => insertUser(ids, "link")

const newLink = Effect.fnUntraced(function* (userId: Snowflake.Snowflake, purpose: Purpose = "bind") {
  const link: EmailLink = {
    id: yield* ids.next,
    purpose,
    tokenDigest: randomBytes(32).toString("hex"),
    userId,
    email: `Person${counter}@example.org`,
    createdAt: NOW,
    expiresAt: later("1 hour"),
    usedAt: null
  }
  yield* (yield* EmailLinksRepo).create(link)
  return link
})

export const emailLinksRepoContract = (it: Vitest.MethodsNonLive<EmailLinksRepo | UsersRepo.UsersRepo>) => {
  it.effect("a link is used once, by its digest and purpose, before it expires", () =>
    Effect.gen(function* () {
      const repo = yield* EmailLinksRepo
      const userId = yield* newUser()
      const link = yield* newLink(userId, "recover")
      expect(Option.isNone(yield* repo.use(link.tokenDigest, "bind", NOW))).toBe(true)
      expect(Option.isNone(yield* repo.use("0".repeat(64), "recover", NOW))).toBe(true)
      const used = Option.getOrThrow(yield* repo.use(link.tokenDigest, "recover", later("59 minutes")))
      expect(used).toMatchObject({ id: link.id, userId, email: link.email, purpose: "recover" })
      expect(Option.isNone(yield* repo.use(link.tokenDigest, "recover", later("59 minutes")))).toBe(true)
      const expired = yield* newLink(userId, "recover")
      expect(Option.isNone(yield* repo.use(expired.tokenDigest, "recover", later("1 hour")))).toBe(true)
    })
  )

  it.effect("find answers an open link by its digest and purpose without using it", () =>
    Effect.gen(function* () {
      const repo = yield* EmailLinksRepo
      const userId = yield* newUser()
      const link = yield* newLink(userId, "recover")
      expect(Option.isNone(yield* repo.find(link.tokenDigest, "bind", NOW))).toBe(true)
      expect(Option.isNone(yield* repo.find(link.tokenDigest, "recover", later("1 hour")))).toBe(true)
      for (let i = 0; i < 3; i++) {
        expect(Option.map(yield* repo.find(link.tokenDigest, "recover", NOW), (l) => l.id)).toEqual(
          Option.some(link.id)
        )
      }
      expect(Option.isSome(yield* repo.use(link.tokenDigest, "recover", NOW))).toBe(true)
      expect(Option.isNone(yield* repo.find(link.tokenDigest, "recover", NOW))).toBe(true)
    })
  )

  it.effect("of concurrent uses of one link exactly one succeeds", () =>
    Effect.gen(function* () {
      const repo = yield* EmailLinksRepo
      const link = yield* newLink(yield* newUser())
      const results = yield* Effect.all(
        Array.from({ length: 8 }, () => repo.use(link.tokenDigest, "bind", NOW)),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Option.isSome)).toHaveLength(1)
    })
  )

  it.effect("burning a user's links of one purpose leaves the others working", () =>
    Effect.gen(function* () {
      const repo = yield* EmailLinksRepo
      const userId = yield* newUser()
      const other = yield* newUser()
      const first = yield* newLink(userId, "recover")
      const second = yield* newLink(userId, "recover")
      const bind = yield* newLink(userId, "bind")
      const foreign = yield* newLink(other, "recover")
      expect(yield* repo.burnFor(userId, "recover", NOW)).toBe(2)
      expect(yield* repo.burnFor(userId, "recover", NOW)).toBe(0)
      for (const link of [first, second]) {
        expect(Option.isNone(yield* repo.use(link.tokenDigest, "recover", NOW))).toBe(true)
      }
      expect(Option.isSome(yield* repo.use(bind.tokenDigest, "bind", NOW))).toBe(true)
      expect(Option.isSome(yield* repo.use(foreign.tokenDigest, "recover", NOW))).toBe(true)
    })
  )

  it.effect("names the newest open link of a user and purpose", () =>
    Effect.gen(function* () {
      const repo = yield* EmailLinksRepo
      const userId = yield* newUser()
      expect(Option.isNone(yield* repo.newestOpen(userId, "bind", NOW))).toBe(true)
      yield* newLink(userId, "bind")
      const newer = yield* newLink(userId, "bind")
      yield* newLink(userId, "recover")
      expect(Option.getOrThrow(yield* repo.newestOpen(userId, "bind", NOW)).id).toBe(newer.id)
      expect(Option.isNone(yield* repo.newestOpen(userId, "bind", later("1 hour")))).toBe(true)
      yield* repo.burnFor(userId, "bind", NOW)
      expect(Option.isNone(yield* repo.newestOpen(userId, "bind", NOW))).toBe(true)
    })
  )
}
