/**
 * Sessions on memory stores and the test clock: access tokens expire, refresh rotates the pair, a
 * spent refresh token used again ends the whole session, a session started under a password since
 * changed is refused, and ending sessions keeps the one asked.
 */
import { describe, expect, it } from "@effect/vitest"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { Sessions } from "../src/Sessions.ts"
import { SessionsConfig } from "../src/SessionsConfig.ts"
import * as World from "./support/AuthWorld.ts"

const userId = Snowflake.Snowflake.make("1000")

describe("Sessions", () => {
  it.effect("an access token works until its lifetime ends, then is expired", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const pair = yield* sessions.start(userId, World.CLIENT)
      const grant = yield* sessions.authenticate(pair.accessToken)
      expect(grant).toEqual({ userId, sessionId: pair.sessionId })
      expect(pair.expiresIn).toBe(3600)

      yield* TestClock.adjust("59 minutes")
      yield* sessions.authenticate(pair.accessToken)
      yield* TestClock.adjust("1 minute")
      const error = yield* Effect.flip(sessions.authenticate(pair.accessToken))
      expect(error._tag).toBe("TokenExpired")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a refresh token is not an access token, nor the other way round", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const pair = yield* sessions.start(userId, World.CLIENT)
      expect((yield* Effect.flip(sessions.authenticate(pair.refreshToken)))._tag).toBe("TokenInvalid")
      expect((yield* Effect.flip(sessions.refresh(pair.accessToken)))._tag).toBe("RefreshRejected")
      const forged = Redacted.make(`${Redacted.value(pair.accessToken)}x`)
      expect((yield* Effect.flip(sessions.authenticate(forged)))._tag).toBe("TokenInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("refresh rotates the pair within the same session; the old access token stops", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const first = yield* sessions.start(userId, World.CLIENT)
      const second = yield* sessions.refresh(first.refreshToken)
      expect(second.sessionId).toBe(first.sessionId)
      expect(Redacted.value(second.accessToken)).not.toBe(Redacted.value(first.accessToken))
      expect(Redacted.value(second.refreshToken)).not.toBe(Redacted.value(first.refreshToken))
      yield* sessions.authenticate(second.accessToken)
      expect((yield* Effect.flip(sessions.authenticate(first.accessToken)))._tag).toBe("TokenInvalid")
      // the rotated pair refreshes in turn
      yield* sessions.refresh(second.refreshToken)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("reuse of a spent refresh token ends the whole chain, the newest pair with it", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const first = yield* sessions.start(userId, World.CLIENT)
      const other = yield* sessions.start(userId, World.CLIENT)
      const second = yield* sessions.refresh(first.refreshToken)

      expect((yield* Effect.flip(sessions.refresh(first.refreshToken)))._tag).toBe("RefreshRejected")
      expect((yield* Effect.flip(sessions.authenticate(second.accessToken)))._tag).toBe("TokenInvalid")
      expect((yield* Effect.flip(sessions.refresh(second.refreshToken)))._tag).toBe("RefreshRejected")
      // only that session: the user's other one lives on
      yield* sessions.authenticate(other.accessToken)
      expect((yield* sessions.list(userId)).map((session) => session.id)).toEqual([other.sessionId])
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("refresh is refused once the session's absolute lifetime has passed", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const config = yield* SessionsConfig
      let pair = yield* sessions.start(userId, World.CLIENT)
      // kept alive by refreshing every day, it still ends at its lifetime
      for (let day = 1; day < 60; day++) {
        yield* TestClock.adjust("1 day")
        pair = yield* sessions.refresh(pair.refreshToken)
      }
      expect(config.sessionTtl).toEqual(SessionsConfig.defaults.sessionTtl)
      yield* TestClock.adjust("1 day")
      expect((yield* Effect.flip(sessions.refresh(pair.refreshToken)))._tag).toBe("RefreshRejected")
      expect(yield* sessions.list(userId)).toEqual([])
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("endOthers keeps the session asked and ends the rest; endAll ends every one", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const kept = yield* sessions.start(userId, World.CLIENT)
      const a = yield* sessions.start(userId, World.CLIENT)
      const b = yield* sessions.start(userId, World.CLIENT)
      const stranger = yield* sessions.start(Snowflake.Snowflake.make("2000"), World.CLIENT)

      expect(yield* sessions.endOthers(userId, kept.sessionId)).toBe(2)
      yield* sessions.authenticate(kept.accessToken)
      for (const ended of [a, b]) {
        expect((yield* Effect.flip(sessions.authenticate(ended.accessToken)))._tag).toBe("TokenInvalid")
      }
      expect(yield* sessions.endAll(userId)).toBe(1)
      expect((yield* Effect.flip(sessions.authenticate(kept.accessToken)))._tag).toBe("TokenInvalid")
      yield* sessions.authenticate(stranger.accessToken)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a session started under a password since changed is refused, though never revoked", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const accounts = yield* AccountsRepo
      const registered = yield* World.register("+79161234567", "anna")
      // a login that checked the password before the change, starting its session after it
      const changedAt = yield* accounts.changePassword(registered.userId, "plain:new", yield* DateTime.now)
      const late = yield* sessions.start(registered.userId, World.CLIENT, null)
      expect((yield* Effect.flip(sessions.authenticate(late.accessToken)))._tag).toBe("TokenInvalid")
      expect((yield* Effect.flip(sessions.refresh(late.refreshToken)))._tag).toBe("RefreshRejected")
      // under the current password it works
      const current = yield* sessions.start(registered.userId, World.CLIENT, Option.getOrNull(changedAt))
      yield* sessions.authenticate(current.accessToken)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect(
    "usable answers which login sessions hold: refreshed and past the hour yes; ended or of an old password no",
    () =>
      Effect.gen(function* () {
        const sessions = yield* Sessions
        const accounts = yield* AccountsRepo
        const registered = yield* World.register("+79161234568", "boris")
        const refreshed = yield* sessions.start(registered.userId, World.CLIENT)
        yield* sessions.refresh(refreshed.refreshToken)
        const ended = yield* sessions.start(registered.userId, World.CLIENT)
        yield* sessions.end(ended.sessionId)
        const unknown = Snowflake.Snowflake.make("4242")
        yield* TestClock.adjust("2 hours")
        const asked = [refreshed.sessionId, ended.sessionId, unknown]
        expect([...(yield* sessions.usable(asked))]).toEqual([refreshed.sessionId])
        // a password change: sessions started under the old one no longer hold
        yield* accounts.changePassword(registered.userId, "plain:new", yield* DateTime.now)
        expect([...(yield* sessions.usable(asked))]).toEqual([])
      }).pipe(Effect.provide(World.layer))
  )
})
