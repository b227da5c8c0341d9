/**
 * Registration's rules on memory stores and the test clock: a code works once and for five
 * minutes, a new code replaces the last one, taken names and numbers are refused before the code is
 * spent, and the captcha and the queue stand before anything is sent.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Ref } from "effect"
import { TestClock } from "effect/testing"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import * as Phone from "../src/Phone.ts"
import { type Completion, Registration } from "../src/Registration.ts"
import { Sessions } from "../src/Sessions.ts"
import * as World from "./support/AuthWorld.ts"
import * as Fakes from "./support/Fakes.ts"

const PHONE = "+79161234567"

const complete = (
  started: { readonly verificationId: Completion["verificationId"]; readonly code: string },
  overrides: Partial<Completion> = {}
) =>
  Effect.flatMap(Registration, (registration) =>
    registration.complete(
      {
        verificationId: started.verificationId,
        code: started.code,
        username: "anna",
        displayName: null,
        password: World.password("correct horse"),
        dateOfBirth: "2000-01-01",
        ...overrides
      },
      World.CLIENT
    )
  )

const refusal = (effect: Effect.Effect<unknown, { readonly _tag: string }, Registration>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("Registration", () => {
  it.effect("the code sent to the phone creates the account with its first session", () =>
    Effect.gen(function* () {
      const started = yield* World.startRegistration(PHONE)
      const pair = yield* complete(started)
      const grant = yield* (yield* Sessions).authenticate(pair.accessToken)
      expect(grant.userId).toBe(pair.userId)
      const account = Option.getOrThrow(yield* (yield* AccountsRepo).findByPhone(Phone.Normalised.make(PHONE)))
      expect(account.user).toMatchObject({ id: pair.userId, username: "anna" })
      expect(account.credentials).toMatchObject({ phone: PHONE, email: null, passwordHash: "plain:correct horse" })
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a code works once", () =>
    Effect.gen(function* () {
      const started = yield* World.startRegistration(PHONE)
      yield* complete(started)
      expect(yield* refusal(complete(started, { username: "boris" }))).toBe("CodeInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a wrong code is refused and the right one still works after it", () =>
    Effect.gen(function* () {
      const started = yield* World.startRegistration(PHONE)
      const wrong = started.code === "000000" ? "111111" : "000000"
      expect(yield* refusal(complete({ ...started, code: wrong }))).toBe("CodeInvalid")
      yield* complete(started)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a code lives five minutes", () =>
    Effect.gen(function* () {
      const early = yield* World.startRegistration("+79160000001")
      const late = yield* World.startRegistration(PHONE)
      yield* TestClock.adjust("299 seconds")
      yield* complete(early, { username: "early" })
      yield* TestClock.adjust("1 second")
      expect(yield* refusal(complete(late))).toBe("CodeInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("asking again replaces the code: the earlier one stops working", () =>
    Effect.gen(function* () {
      const first = yield* World.startRegistration(PHONE)
      const second = yield* World.startRegistration(PHONE)
      expect(second.code).not.toBe(first.code)
      expect(yield* refusal(complete(first))).toBe("CodeInvalid")
      yield* complete(second)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a taken username or phone is refused before the code is spent", () =>
    Effect.gen(function* () {
      yield* World.register("+79160000001", "anna")
      const started = yield* World.startRegistration(PHONE)
      expect(yield* refusal(complete(started))).toBe("UsernameTaken")
      // the code survived the refusal
      yield* complete(started, { username: "boris" })

      const again = yield* World.startRegistration(PHONE)
      expect(yield* refusal(complete(again, { username: "vera" }))).toBe("PhoneTaken")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("the second start from an address needs a captcha; nothing is sent without one", () =>
    Effect.gen(function* () {
      const registration = yield* Registration
      const outbox = yield* Fakes.Outbox
      const phone = Phone.Normalised.make(PHONE)
      yield* registration.startByPhone({ phone, captchaToken: undefined, address: "203.0.113.9" })
      expect(
        yield* refusal(registration.startByPhone({ phone, captchaToken: undefined, address: "203.0.113.9" }))
      ).toBe("CaptchaNeeded")
      expect(yield* refusal(registration.startByPhone({ phone, captchaToken: "bad", address: "203.0.113.9" }))).toBe(
        "CaptchaNeeded"
      )
      expect((yield* Ref.get(outbox.jobs)).length).toBe(1)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a queue that refuses is TemporarilyUnavailable", () =>
    Effect.gen(function* () {
      const registration = yield* Registration
      yield* Ref.set((yield* Fakes.Outbox).down, true)
      const started = registration.startByPhone({
        phone: Phone.Normalised.make(PHONE),
        captchaToken: "solved",
        address: "203.0.113.9"
      })
      expect(yield* refusal(started)).toBe("TemporarilyUnavailable")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an e-mail registration proves the address: the account's e-mail is verified", () =>
    Effect.gen(function* () {
      const registration = yield* Registration
      const started = yield* registration.startByEmail({
        email: "anna@example.org",
        captchaToken: "solved",
        address: "203.0.113.9"
      })
      expect(started.maskedEmail).toBe("a***@example.org")
      const code = yield* Fakes.lastSecret("anna@example.org")
      const pair = yield* complete({ verificationId: started.verificationId, code })
      const account = Option.getOrThrow(yield* (yield* AccountsRepo).findByUserId(pair.userId))
      expect(account.credentials).toMatchObject({ phone: null, email: "anna@example.org", emailVerified: true })
    }).pipe(Effect.provide(World.layer))
  )
})
