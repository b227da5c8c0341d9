/**
 * The one behaviour suite every OAuthRepo adapter must pass. On memory in every run, on PostgreSQL
 * when DATABASE_URL is set (codes and grants refer to their application and user, so those are made
 * through ApplicationsRepo and UsersRepo). The races are here: N redemptions of one code and N
 * rotations of one refresh token at once, exactly one wins.
 */
import { expect, type Vitest } from "@effect/vitest"
import { type Application, ApplicationsRepo } from "@veche/applications"
import { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { insertUser } from "@veche/users/test/support/TestUsers"
import { DateTime, Effect, Option } from "effect"
import type { StoredCode, StoredPair } from "../../src/OAuthGrant.ts"
import { OAuthRepo } from "../../src/OAuthRepo.ts"

const ids = Effect.runSync(Snowflake.SnowflakeGenerator.make(16))
let counter = 0
const T0 = DateTime.makeUnsafe(Date.UTC(2026, 5, 1))
const at = (minutes: number) => DateTime.add(T0, { minutes })

/** A digest unique to this process and run (the columns are primary keys on PostgreSQL). */
const digest = () => `oauth-contract-${process.pid}-${Date.now()}-${++counter}`

type Requirements = OAuthRepo | ApplicationsRepo.ApplicationsRepo | UsersRepo.UsersRepo

/** An application (with its owner) and a user who grants it. */
const parties = Effect.gen(function* () {
  const owner = yield* insertUser(ids, "oauthowner")
  const userId = yield* insertUser(ids, "oauthuser")
  const application: Application.Application = {
    id: yield* ids.next,
    ownerId: owner,
    name: `OAuth App ${++counter}`,
    description: "",
    icon: null,
    botPublic: true,
    botRequireCodeGrant: false,
    redirectUris: ["https://a.example/cb"],
    botTokenDigest: null,
    secretDigest: null,
    createdAt: T0
  }
  yield* (yield* ApplicationsRepo.ApplicationsRepo).insert(application, 25)
  return { applicationId: application.id, userId }
})

const newCode = (applicationId: Snowflake.Snowflake, userId: Snowflake.Snowflake, challenge: string | null = null) =>
  Effect.gen(function* () {
    const code: StoredCode = {
      digest: digest(),
      applicationId,
      userId,
      redirectUri: "https://a.example/cb",
      scopes: ["identify"],
      codeChallenge: challenge,
      createdAt: T0,
      expiresAt: at(10)
    }
    yield* (yield* OAuthRepo).insertCode(code)
    return code
  })

const pair = (expiresAt = at(60)): StoredPair => ({
  access: { digest: digest(), expiresAt },
  refresh: { digest: digest() }
})

/** A redeemed code's grant with one token pair. */
const granted = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  const { applicationId, userId } = yield* parties
  const code = yield* newCode(applicationId, userId)
  const redemption = yield* repo.redeemCode(code.digest, { id: yield* ids.next, confidential: true }, at(1))
  if (redemption._tag !== "Redeemed") return yield* Effect.die(new Error(`not redeemed: ${redemption._tag}`))
  const tokens = pair()
  yield* repo.addPair(redemption.grant.id, tokens)
  return { grant: redemption.grant, tokens, applicationId, userId }
})

export const oauthRepoContract = (it: Vitest.MethodsNonLive<Requirements>) => {
  it.effect(
    "redeems a live code once, making its grant; a second use revokes that grant; unknown and expired are unknown",
    () =>
      Effect.gen(function* () {
        const repo = yield* OAuthRepo
        const { applicationId, userId } = yield* parties
        const code = yield* newCode(applicationId, userId, "challenge")
        const grantId = yield* ids.next
        const redeemed = yield* repo.redeemCode(code.digest, { id: grantId, confidential: false }, at(1))
        expect(redeemed).toEqual({
          _tag: "Redeemed",
          code,
          grant: { id: grantId, applicationId, userId, scopes: ["identify"], confidential: false, createdAt: at(1) }
        })
        const tokens = pair()
        yield* repo.addPair(grantId, tokens)
        expect((yield* repo.findAccess(tokens.access.digest, at(2)))._tag).toBe("Found")
        expect(yield* repo.hasLiveGrant(applicationId, userId)).toBe(true)
        expect(yield* repo.redeemCode(code.digest, { id: yield* ids.next, confidential: true }, at(2))).toEqual({
          _tag: "Replayed"
        })
        expect(yield* repo.findAccess(tokens.access.digest, at(2))).toEqual({ _tag: "Unknown" })
        expect(yield* repo.findRefreshGrant(tokens.refresh.digest)).toEqual(Option.none())
        expect(yield* repo.hasLiveGrant(applicationId, userId)).toBe(false)
        expect(yield* repo.redeemCode(digest(), { id: yield* ids.next, confidential: true }, at(2))).toEqual({
          _tag: "Unknown"
        })
        const expired = yield* newCode(applicationId, userId)
        expect(yield* repo.redeemCode(expired.digest, { id: yield* ids.next, confidential: true }, at(10))).toEqual({
          _tag: "Unknown"
        })
      })
  )

  it.effect("N concurrent redemptions of one code: exactly one redeems", () =>
    Effect.gen(function* () {
      const repo = yield* OAuthRepo
      const { applicationId, userId } = yield* parties
      const code = yield* newCode(applicationId, userId)
      const grants = yield* Effect.all(Array.from({ length: 8 }, () => ids.next))
      const outcomes = yield* Effect.all(
        grants.map((id) => repo.redeemCode(code.digest, { id, confidential: true }, at(1))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((o) => o._tag === "Redeemed")).toHaveLength(1)
      expect(outcomes.filter((o) => o._tag === "Replayed")).toHaveLength(7)
    })
  )

  it.effect("finds a live access token's grant, expired after its time, unknown once the grant is revoked", () =>
    Effect.gen(function* () {
      const repo = yield* OAuthRepo
      const { grant, tokens } = yield* granted
      expect(yield* repo.findAccess(tokens.access.digest, at(59))).toEqual({ _tag: "Found", grant })
      expect(yield* repo.findAccess(tokens.access.digest, at(60))).toEqual({ _tag: "Expired" })
      expect(yield* repo.findRefreshGrant(tokens.refresh.digest)).toEqual(Option.some(grant))
      yield* repo.revokeGrant(grant.id, at(5))
      yield* repo.revokeGrant(grant.id, at(6))
      expect(yield* repo.findAccess(tokens.access.digest, at(7))).toEqual({ _tag: "Unknown" })
      expect(yield* repo.findAccess(digest(), at(7))).toEqual({ _tag: "Unknown" })
    })
  )

  it.effect("rotates a refresh token once; its reuse revokes the chain; N concurrent rotations rotate once", () =>
    Effect.gen(function* () {
      const repo = yield* OAuthRepo
      const { grant, tokens } = yield* granted
      const second = pair()
      expect(yield* repo.rotate(tokens.refresh.digest, second, at(2))).toEqual({ _tag: "Rotated", grant })
      expect((yield* repo.findAccess(second.access.digest, at(3)))._tag).toBe("Found")
      // the spent one is still found (to check its client), then its reuse ends everything
      expect(yield* repo.findRefreshGrant(tokens.refresh.digest)).toEqual(Option.some(grant))
      expect(yield* repo.rotate(tokens.refresh.digest, pair(), at(3))).toEqual({ _tag: "Reused" })
      expect(yield* repo.findAccess(second.access.digest, at(3))).toEqual({ _tag: "Unknown" })
      expect(yield* repo.rotate(second.refresh.digest, pair(), at(3))).toEqual({ _tag: "Unknown" })
      expect(yield* repo.rotate(digest(), pair(), at(3))).toEqual({ _tag: "Unknown" })

      const raced = yield* granted
      const outcomes = yield* Effect.all(
        Array.from({ length: 6 }, () => repo.rotate(raced.tokens.refresh.digest, pair(), at(2))),
        { concurrency: "unbounded" }
      )
      expect(outcomes.filter((o) => o._tag === "Rotated")).toHaveLength(1)
    })
  )

  it.effect(
    "revokes by token only the given application's grant; an application's deletion ends its grants and codes",
    () =>
      Effect.gen(function* () {
        const repo = yield* OAuthRepo
        const mine = yield* granted
        const theirs = yield* granted
        yield* repo.revokeByToken(theirs.tokens.access.digest, mine.applicationId, at(2))
        yield* repo.revokeByToken(digest(), mine.applicationId, at(2))
        expect((yield* repo.findAccess(theirs.tokens.access.digest, at(3)))._tag).toBe("Found")
        yield* repo.revokeByToken(mine.tokens.refresh.digest, mine.applicationId, at(2))
        expect(yield* repo.findAccess(mine.tokens.access.digest, at(3))).toEqual({ _tag: "Unknown" })
        yield* repo.revokeByToken(theirs.tokens.access.digest, theirs.applicationId, at(2))
        expect(yield* repo.findRefreshGrant(theirs.tokens.refresh.digest)).toEqual(Option.none())
        // no application named: the token's own grant ends, whoever's it is
        const held = yield* granted
        yield* repo.revokeByToken(digest(), null, at(2))
        expect((yield* repo.findAccess(held.tokens.access.digest, at(3)))._tag).toBe("Found")
        yield* repo.revokeByToken(held.tokens.access.digest, null, at(2))
        expect(yield* repo.findAccess(held.tokens.access.digest, at(3))).toEqual({ _tag: "Unknown" })

        const erased = yield* granted
        expect((yield* repo.grantsOf(erased.userId)).map((g) => g.id)).toEqual([erased.grant.id])
        const erasedCode = yield* newCode(erased.applicationId, erased.userId)
        yield* repo.revokeUser(erased.userId, at(3))
        expect(yield* repo.grantsOf(erased.userId)).toEqual([])
        expect(yield* repo.findAccess(erased.tokens.access.digest, at(4))).toEqual({ _tag: "Unknown" })
        expect(yield* repo.redeemCode(erasedCode.digest, { id: yield* ids.next, confidential: true }, at(4))).toEqual({
          _tag: "Unknown"
        })

        const doomed = yield* granted
        const pending = yield* newCode(doomed.applicationId, doomed.userId)
        yield* repo.revokeApplication(doomed.applicationId, at(3))
        expect(yield* repo.findAccess(doomed.tokens.access.digest, at(4))).toEqual({ _tag: "Unknown" })
        expect(yield* repo.redeemCode(pending.digest, { id: yield* ids.next, confidential: true }, at(4))).toEqual({
          _tag: "Unknown"
        })
      })
  )

  it.effect(
    "sweeps expired codes, revoked grants with their tokens and expired access tokens; a live grant keeps its spent refresh tokens",
    () =>
      Effect.gen(function* () {
        const repo = yield* OAuthRepo
        const live = yield* granted
        const ended = yield* granted
        yield* repo.revokeGrant(ended.grant.id, at(2))
        const next = pair(at(100_000))
        expect((yield* repo.rotate(live.tokens.refresh.digest, next, at(3)))._tag).toBe("Rotated")
        yield* newCode(live.applicationId, live.userId)

        // past every code's ten minutes, the revocation, and the first access token's hour
        const swept = yield* repo.sweep(at(61), 1_000)
        expect(swept.codes).toBeGreaterThanOrEqual(1)
        expect(swept.grants).toBeGreaterThanOrEqual(1)
        expect(swept.accessTokens).toBeGreaterThanOrEqual(1)
        expect(yield* repo.sweep(at(61), 1_000)).toEqual({ codes: 0, grants: 0, accessTokens: 0 })

        // the live grant: its current access token works, and its spent refresh token still
        // reveals a reuse (which ends the chain)
        expect((yield* repo.findAccess(next.access.digest, at(62)))._tag).toBe("Found")
        expect((yield* repo.rotate(live.tokens.refresh.digest, pair(), at(62)))._tag).toBe("Reused")
        expect(yield* repo.findAccess(next.access.digest, at(62))).toEqual({ _tag: "Unknown" })
      })
  )
}
