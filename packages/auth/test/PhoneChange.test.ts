/**
 * Changing the phone on memory stores: the password first, a taken number refused, the code bound
 * to the account that asked, and login by the new number (not the old) afterwards.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import * as Phone from "../src/Phone.ts"
import { PhoneChange } from "../src/PhoneChange.ts"
import * as World from "./support/AuthWorld.ts"
import * as Fakes from "./support/Fakes.ts"

const OLD = "+79161234567"
const NEW = "+79169998877"

const start = (userId: Snowflake.Snowflake, phone = NEW, secret = "correct horse") =>
  Effect.flatMap(PhoneChange, (change) =>
    change.start({
      userId,
      password: World.password(secret),
      phone: Phone.Normalised.make(phone),
      address: "203.0.113.1"
    })
  )

const tagOf = (effect: Effect.Effect<unknown, { readonly _tag: string }, PhoneChange>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("PhoneChange", () => {
  it.effect("the code sent to the new number moves the account to it", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(OLD, "anna")
      const change = yield* PhoneChange
      const accounts = yield* AccountsRepo
      const started = yield* start(userId)
      const code = yield* Fakes.lastSecret(NEW)
      expect(yield* change.complete({ userId, verificationId: started.verificationId, code })).toBe(NEW)
      expect(Option.isNone(yield* accounts.findByPhone(Phone.Normalised.make(OLD)))).toBe(true)
      expect(Option.getOrThrow(yield* accounts.findByPhone(Phone.Normalised.make(NEW))).user.id).toBe(userId)
      // once
      expect(yield* tagOf(change.complete({ userId, verificationId: started.verificationId, code }))).toBe(
        "CodeInvalid"
      )
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a wrong password sends nothing", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(OLD, "anna")
      expect(yield* tagOf(start(userId, NEW, "wrong"))).toBe("PasswordMismatch")
      expect(yield* Effect.exit(Fakes.lastSecret(NEW))).toMatchObject({ _tag: "Failure" })
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a number another account holds is refused", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(OLD, "anna")
      yield* World.register(NEW, "boris")
      expect(yield* tagOf(start(userId))).toBe("PhoneTaken")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("the code is bound to the account that asked: another account cannot use it", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(OLD, "anna")
      const { userId: other } = yield* World.register("+79160000001", "boris")
      const change = yield* PhoneChange
      const started = yield* start(userId)
      const code = yield* Fakes.lastSecret(NEW)
      expect(yield* tagOf(change.complete({ userId: other, verificationId: started.verificationId, code }))).toBe(
        "CodeInvalid"
      )
      expect(yield* change.complete({ userId, verificationId: started.verificationId, code })).toBe(NEW)
    }).pipe(Effect.provide(World.layer))
  )
})
