/**
 * Adding and removing an e-mail address on memory stores and the test clock: the password first,
 * the address pending until its link is followed, a new link retiring the last one, links living a
 * day, one request a minute, an address confirmed by another account refused, removal ending
 * recovery by e-mail.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Snowflake } from "@veche/platform"
import { Effect, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { EmailBinding } from "../src/EmailBinding.ts"
import { EmailConfirmation } from "../src/EmailConfirmation.ts"
import * as World from "./support/AuthWorld.ts"
import * as Fakes from "./support/Fakes.ts"

const EMAIL = "anna@example.org"

const add = (userId: Snowflake.Snowflake, email = EMAIL, secret = "correct horse") =>
  Effect.flatMap(EmailBinding, (binding) => binding.add({ userId, password: World.password(secret), email }))

const confirm = (token: string) => Effect.flatMap(EmailConfirmation, (flow) => flow.confirm(Redacted.make(token)))

const emailOf = (userId: Snowflake.Snowflake) =>
  Effect.flatMap(AccountsRepo, (accounts) =>
    Effect.map(accounts.findByUserId(userId), (account) => {
      const { email, emailVerified } = Option.getOrThrow(account).credentials
      return { email, emailVerified }
    })
  )

const tagOf = <R>(effect: Effect.Effect<unknown, { readonly _tag: string }, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("EmailBinding", () => {
  it.effect("the address is pending until its link is followed, then the account's, confirmed", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      const binding = yield* EmailBinding
      expect(yield* tagOf(add(userId, EMAIL, "wrong"))).toBe("PasswordMismatch")
      yield* add(userId)
      expect(yield* binding.pending(userId)).toEqual(Option.some(EMAIL))
      expect((yield* emailOf(userId)).email).toBeNull()

      const token = yield* Fakes.lastSecret(EMAIL)
      yield* confirm(token)
      expect(yield* emailOf(userId)).toEqual({ email: EMAIL, emailVerified: true })
      expect(Option.isNone(yield* binding.pending(userId))).toBe(true)
      expect(yield* tagOf(confirm(token))).toBe("LinkInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("sending again retires the last link; a link lives a day", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      const binding = yield* EmailBinding
      yield* add(userId)
      const first = yield* Fakes.lastSecret(EMAIL)
      yield* TestClock.adjust("1 minute")
      yield* binding.resend(userId)
      const second = yield* Fakes.lastSecret(EMAIL)
      expect(second).not.toBe(first)
      expect(yield* tagOf(confirm(first))).toBe("LinkInvalid")
      yield* TestClock.adjust("1 day")
      expect(yield* tagOf(confirm(second))).toBe("LinkInvalid")
      expect(yield* tagOf(binding.resend(userId))).toBe("NothingPending")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("one request a minute per user", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      yield* add(userId)
      expect(yield* tagOf(add(userId, "other@example.org"))).toBe("TooManyAttempts")
      yield* TestClock.adjust("1 minute")
      yield* add(userId, "other@example.org")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an address another account holds is refused", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      const { userId: other } = yield* World.register("+79160000001", "boris")
      yield* (yield* AccountsRepo).bindEmail(other, EMAIL)
      expect(yield* tagOf(add(userId))).toBe("EmailTaken")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("removing the address needs the password and unbinds it", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      const binding = yield* EmailBinding
      yield* (yield* AccountsRepo).bindEmail(userId, EMAIL)
      expect(yield* tagOf(binding.remove({ userId, password: World.password("wrong") }))).toBe("PasswordMismatch")
      expect((yield* emailOf(userId)).email).toBe(EMAIL)
      yield* binding.remove({ userId, password: World.password("correct horse") })
      expect((yield* emailOf(userId)).email).toBeNull()
    }).pipe(Effect.provide(World.layer))
  )
})
