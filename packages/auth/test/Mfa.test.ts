/**
 * Two-factor authentication's rules on memory stores, a fake authenticator and the test clock:
 * enabling needs the password and a right app code, an app code works once, a backup code works
 * once, a new set retires the old one, disabling takes the codes with it, and guesses are budgeted.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Snowflake } from "@veche/platform"
import { Clock, Effect } from "effect"
import { TestClock } from "effect/testing"
import { Mfa } from "../src/Mfa.ts"
import { TotpCodes } from "../src/TotpCodes.ts"
import * as World from "./support/AuthWorld.ts"

const SECRET = "JBSW Y3DP EHPK 3PXP"
const NORMALISED = "JBSWY3DPEHPK3PXP"

/** The code the person's app shows now. */
const appCode = Effect.gen(function* () {
  const totp = yield* TotpCodes
  return yield* totp.codeAt(NORMALISED, yield* Clock.currentTimeMillis)
})

/** A registered account with 2FA on; answers its id and its backup codes. */
const enabled = Effect.gen(function* () {
  const { userId } = yield* World.register("+79161234567", "anna")
  const mfa = yield* Mfa
  const backupCodes = yield* mfa.enable({
    userId,
    password: World.password("correct horse"),
    secret: SECRET,
    code: yield* appCode
  })
  return { userId, backupCodes }
})

const tagOf = <E extends { readonly _tag: string }>(effect: Effect.Effect<unknown, E, Mfa>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

const checkLogin = (userId: Snowflake.Snowflake, code: string | undefined) =>
  Effect.flatMap(Mfa, (mfa) => mfa.checkLogin(userId, code))

describe("Mfa", () => {
  it.effect("enabling needs the password, a valid secret and the app's current code", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register("+79161234567", "anna")
      const mfa = yield* Mfa
      const password = World.password("correct horse")
      const code = yield* appCode
      expect(yield* tagOf(mfa.enable({ userId, password: World.password("wrong"), secret: SECRET, code }))).toBe(
        "PasswordMismatch"
      )
      expect(yield* tagOf(mfa.enable({ userId, password, secret: "TOO SHORT", code }))).toBe("MfaSecretInvalid")
      const wrong = code === "000000" ? "000001" : "000000"
      expect(yield* tagOf(mfa.enable({ userId, password, secret: SECRET, code: wrong }))).toBe("MfaCodeInvalid")
      expect(yield* mfa.status(userId)).toEqual({ totpEnabled: false, backupCodesLeft: 0 })

      const backupCodes = yield* mfa.enable({ userId, password, secret: SECRET, code })
      expect(backupCodes.length).toBe(10)
      expect(yield* mfa.status(userId)).toEqual({ totpEnabled: true, backupCodesLeft: 10 })
      yield* TestClock.adjust("30 seconds")
      expect(yield* tagOf(mfa.enable({ userId, password, secret: SECRET, code: yield* appCode }))).toBe(
        "MfaAlreadyEnabled"
      )
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("login: no check with 2FA off; with it on a code is required", () =>
    Effect.gen(function* () {
      const { userId: plain } = yield* World.register("+79160000001", "plain")
      yield* checkLogin(plain, undefined)
      const { userId } = yield* enabled
      expect(yield* tagOf(checkLogin(userId, undefined))).toBe("MfaRequired")
      expect(yield* tagOf(checkLogin(userId, "  "))).toBe("MfaRequired")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an app code works once: the code that enabled 2FA, and each later one", () =>
    Effect.gen(function* () {
      const { userId } = yield* enabled
      // the code that proved the secret is used
      expect(yield* tagOf(checkLogin(userId, yield* appCode))).toBe("MfaCodeInvalid")
      yield* TestClock.adjust("30 seconds")
      const code = yield* appCode
      yield* checkLogin(userId, code)
      expect(yield* tagOf(checkLogin(userId, code))).toBe("MfaCodeInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an app code from a step too far from now is refused", () =>
    Effect.gen(function* () {
      const { userId } = yield* enabled
      yield* TestClock.adjust("30 seconds")
      const code = yield* appCode
      yield* TestClock.adjust("90 seconds")
      expect(yield* tagOf(checkLogin(userId, code))).toBe("MfaCodeInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a backup code works once, in any case and spacing", () =>
    Effect.gen(function* () {
      const { userId, backupCodes } = yield* enabled
      const [first = "", second = ""] = backupCodes
      yield* checkLogin(userId, ` ${first.toUpperCase()} `)
      expect(yield* tagOf(checkLogin(userId, first))).toBe("MfaCodeInvalid")
      yield* checkLogin(userId, second)
      expect((yield* (yield* Mfa).status(userId)).backupCodesLeft).toBe(8)
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a new set of backup codes retires the old one", () =>
    Effect.gen(function* () {
      const { userId, backupCodes } = yield* enabled
      const mfa = yield* Mfa
      expect(yield* tagOf(mfa.regenerateBackupCodes({ userId, password: World.password("wrong") }))).toBe(
        "PasswordMismatch"
      )
      const fresh = yield* mfa.regenerateBackupCodes({ userId, password: World.password("correct horse") })
      expect(fresh.length).toBe(10)
      expect(fresh).not.toContain(backupCodes[0])
      expect(yield* tagOf(checkLogin(userId, backupCodes[0]))).toBe("MfaCodeInvalid")
      yield* checkLogin(userId, fresh[0])
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("disabling needs a right code and takes the backup codes with it", () =>
    Effect.gen(function* () {
      const { userId, backupCodes } = yield* enabled
      const mfa = yield* Mfa
      expect(yield* tagOf(mfa.disable({ userId, code: "not-a-code" }))).toBe("MfaCodeInvalid")
      yield* mfa.disable({ userId, code: backupCodes[0] ?? "" })
      expect(yield* mfa.status(userId)).toEqual({ totpEnabled: false, backupCodesLeft: 0 })
      yield* checkLogin(userId, undefined)
      expect(yield* tagOf(mfa.disable({ userId, code: backupCodes[1] ?? "" }))).toBe("MfaNotEnabled")
      expect(yield* tagOf(mfa.regenerateBackupCodes({ userId, password: World.password("correct horse") }))).toBe(
        "MfaNotEnabled"
      )
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("ten wrong codes exhaust the budget: even a right one is refused until the window passes", () =>
    Effect.gen(function* () {
      const { userId, backupCodes } = yield* enabled
      for (let i = 0; i < 10; i++) expect(yield* tagOf(checkLogin(userId, "000000"))).toBe("MfaCodeInvalid")
      expect(yield* tagOf(checkLogin(userId, backupCodes[0]))).toBe("TooManyAttempts")
      yield* TestClock.adjust("15 minutes")
      yield* checkLogin(userId, backupCodes[0])
    }).pipe(Effect.provide(World.layer))
  )
})
