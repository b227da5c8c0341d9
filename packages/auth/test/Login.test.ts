/**
 * Login's rules on memory stores and the test clock: unknown account and wrong password are one
 * error, failures are counted per account and address (hard) and per account (a captcha, not a
 * lockout), a right password gives its units back, and a stale hash is replaced.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { TestClock } from "effect/testing"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { Login, type LoginRequest } from "../src/Login.ts"
import * as Phone from "../src/Phone.ts"
import { Sessions } from "../src/Sessions.ts"
import * as World from "./support/AuthWorld.ts"

const PHONE = "+79161234567"

const request = (overrides: Partial<LoginRequest> = {}): LoginRequest => ({
  login: "8 (916) 123-45-67",
  password: World.password("correct horse"),
  captchaToken: "solved",
  address: "203.0.113.1",
  ...overrides
})

const attempt = (overrides: Partial<LoginRequest> = {}) =>
  Effect.flatMap(Login, (login) => login.login(request(overrides), World.CLIENT))

const failure = (overrides: Partial<LoginRequest> = {}) =>
  Effect.map(Effect.flip(attempt(overrides)), (error) => error._tag)

describe("Login", () => {
  it.effect("the right password in any spelling of the phone starts a session of the account", () =>
    Effect.gen(function* () {
      const registered = yield* World.register(PHONE, "anna")
      const pair = yield* attempt()
      expect(pair.userId).toBe(registered.userId)
      expect(pair.sessionId).not.toBe(registered.sessionId)
      yield* (yield* Sessions).authenticate(pair.accessToken)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an unknown account and a wrong password are the same error", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      expect(yield* failure({ password: World.password("wrong") })).toBe("BadCredentials")
      expect(yield* failure({ login: "+79997776655" })).toBe("BadCredentials")
      expect(yield* failure({ login: "nobody@example.org" })).toBe("BadCredentials")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("the first attempt from an address needs no captcha; the next one does", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      yield* attempt({ captchaToken: undefined })
      expect(yield* failure({ captchaToken: undefined })).toBe("CaptchaNeeded")
      expect(yield* failure({ captchaToken: "bad" })).toBe("CaptchaNeeded")
      expect(yield* failure({ captchaToken: "down" })).toBe("TemporarilyUnavailable")
      // another address has its own free attempt
      yield* attempt({ captchaToken: undefined, address: "203.0.113.2" })
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("ten wrong passwords from one address lock that address out of the account for the window", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      for (let i = 0; i < 10; i++)
        expect(yield* failure({ password: World.password(`guess ${i}`) })).toBe("BadCredentials")
      // even the right password is refused now, before it is checked
      expect(yield* failure()).toBe("TooManyAttempts")

      yield* TestClock.adjust("15 minutes")
      yield* attempt()
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("past the account's threshold other addresses need a captcha, not a lockout", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      for (let i = 0; i < 10; i++) {
        const address = `203.0.113.${10 + i}`
        // each from its own address: the per-address limits never trip
        expect(yield* failure({ password: World.password(`guess ${i}`), address, captchaToken: undefined })).toBe(
          "BadCredentials"
        )
      }
      // a fresh address would have had its free attempt, but the account is over its threshold
      expect(yield* failure({ address: "203.0.113.99", captchaToken: undefined })).toBe("CaptchaNeeded")
      // the owner with a captcha gets in
      yield* attempt({ address: "203.0.113.99" })
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("right passwords give their units back: many logins never lock the owner out", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      for (let i = 0; i < 25; i++) yield* attempt()
      for (let i = 0; i < 9; i++) expect(yield* failure({ password: World.password("wrong") })).toBe("BadCredentials")
      yield* attempt()
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a hash made with old parameters is replaced by a fresh one at login", () =>
    Effect.gen(function* () {
      const registered = yield* World.register(PHONE, "anna")
      const accounts = yield* AccountsRepo
      const hashOf = Effect.map(
        accounts.findByUserId(registered.userId),
        (account) => Option.getOrThrow(account).credentials.passwordHash
      )
      yield* accounts.rehashPassword(registered.userId, yield* hashOf, "stale:correct horse")
      yield* attempt()
      expect(yield* hashOf).toBe("plain:correct horse")
      expect(Option.isSome(yield* accounts.findByPhone(Phone.Normalised.make(PHONE)))).toBe(true)
    }).pipe(Effect.provide(World.layer))
  )
})
