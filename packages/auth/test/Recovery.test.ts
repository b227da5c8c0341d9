/**
 * Password recovery's rules on memory stores and the test clock: the code sets a new password once,
 * every earlier session ends, the old password stops working, 2FA is still asked, and an e-mail link
 * goes only to a confirmed address.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect, Redacted, Ref } from "effect"
import { TestClock } from "effect/testing"
import { AccountsRepo } from "../src/AccountsRepo.ts"
import { Login } from "../src/Login.ts"
import { Mfa } from "../src/Mfa.ts"
import * as Phone from "../src/Phone.ts"
import { Recovery } from "../src/Recovery.ts"
import { Sessions } from "../src/Sessions.ts"
import { TotpCodes } from "../src/TotpCodes.ts"
import * as World from "./support/AuthWorld.ts"
import * as Fakes from "./support/Fakes.ts"

const PHONE = "+79161234567"

const startRecovery = Effect.gen(function* () {
  const recovery = yield* Recovery
  const started = yield* recovery.startByPhone({
    phone: Phone.Normalised.make(PHONE),
    captchaToken: "solved",
    address: "203.0.113.1"
  })
  return { verificationId: started.verificationId, code: yield* Fakes.lastSecret(PHONE) }
})

const login = (secret: string) =>
  Effect.flatMap(Login, (flow) =>
    flow.login(
      { login: PHONE, password: World.password(secret), captchaToken: "solved", address: "203.0.113.1" },
      World.CLIENT
    )
  )

const tagOf = (effect: Effect.Effect<unknown, { readonly _tag: string }, Recovery | Login>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)

describe("Recovery", () => {
  it.effect("the code sets the new password, ends every session and starts a new one", () =>
    Effect.gen(function* () {
      const registered = yield* World.register(PHONE, "anna")
      const sessions = yield* Sessions
      const recovery = yield* Recovery
      const { verificationId, code } = yield* startRecovery
      const pair = yield* recovery.completeByPhone(
        { verificationId, code, newPassword: World.password("new horse") },
        World.CLIENT
      )
      expect(pair.userId).toBe(registered.userId)
      yield* sessions.authenticate(pair.accessToken)
      expect((yield* Effect.flip(sessions.authenticate(registered.accessToken)))._tag).toBe("TokenInvalid")
      expect(yield* tagOf(login("correct horse"))).toBe("BadCredentials")
      yield* login("new horse")
      // once
      expect(
        yield* tagOf(
          recovery.completeByPhone({ verificationId, code, newPassword: World.password("third") }, World.CLIENT)
        )
      ).toBe("CodeInvalid")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("no code goes to a number without an account, and the start looks the same", () =>
    Effect.gen(function* () {
      const recovery = yield* Recovery
      const started = yield* recovery.startByPhone({
        phone: Phone.Normalised.make(PHONE),
        captchaToken: "solved",
        address: "203.0.113.1"
      })
      expect(started.maskedPhone).toBe("+7 *** ***-**-67")
      yield* Fakes.settle
      expect(yield* Ref.get((yield* Fakes.Outbox).jobs)).toEqual([])
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a recovery code expires after five minutes", () =>
    Effect.gen(function* () {
      yield* World.register(PHONE, "anna")
      const { verificationId, code } = yield* startRecovery
      yield* TestClock.adjust("5 minutes")
      const recovery = yield* Recovery
      expect(
        yield* tagOf(
          recovery.completeByPhone({ verificationId, code, newPassword: World.password("new") }, World.CLIENT)
        )
      ).toBe("CodeInvalid")
      yield* login("correct horse")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("with 2FA on, the second factor is asked and a missing one does not spend the code", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(PHONE, "anna")
      const totp = yield* TotpCodes
      const secret = "JBSWY3DPEHPK3PXP"
      const backupCodes = yield* (yield* Mfa).enable({
        userId,
        password: World.password("correct horse"),
        secret,
        code: yield* totp.codeAt(secret, yield* Clock.currentTimeMillis)
      })
      const recovery = yield* Recovery
      const { verificationId, code } = yield* startRecovery
      const request = { verificationId, code, newPassword: World.password("new horse") }
      expect(yield* tagOf(recovery.completeByPhone(request, World.CLIENT))).toBe("MfaRequired")
      expect(yield* tagOf(recovery.completeByPhone({ ...request, mfaCode: "000000" }, World.CLIENT))).toBe(
        "MfaCodeInvalid"
      )
      yield* recovery.completeByPhone({ ...request, mfaCode: backupCodes[0] }, World.CLIENT)
      // the new password is right (the second factor is what login asks next), the old one is not
      expect(yield* tagOf(login("new horse"))).toBe("MfaRequired")
      expect(yield* tagOf(login("correct horse"))).toBe("BadCredentials")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("an e-mail link goes only to the account's confirmed address, and works once", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(PHONE, "anna")
      const accounts = yield* AccountsRepo
      const recovery = yield* Recovery
      const outbox = yield* Fakes.Outbox
      const ask = recovery.startByEmail({ email: "anna@example.org", captchaToken: "solved", address: "203.0.113.1" })

      // not yet this account's address: nothing is sent
      yield* ask
      yield* Fakes.settle
      expect(yield* Ref.get(outbox.jobs)).toHaveLength(1) // the registration's SMS only

      yield* accounts.bindEmail(userId, "anna@example.org")
      yield* ask
      const token = Redacted.make(yield* Fakes.lastSecret("anna@example.org"))
      yield* recovery.completeByEmail({ token, newPassword: World.password("new horse") }, World.CLIENT)
      expect(
        yield* tagOf(recovery.completeByEmail({ token, newPassword: World.password("third") }, World.CLIENT))
      ).toBe("LinkInvalid")
      yield* login("new horse")
    }).pipe(Effect.provide(World.layer))
  )

  it.effect("a link stops working once the address is no longer the account's", () =>
    Effect.gen(function* () {
      const { userId } = yield* World.register(PHONE, "anna")
      const accounts = yield* AccountsRepo
      const recovery = yield* Recovery
      yield* accounts.bindEmail(userId, "anna@example.org")
      yield* recovery.startByEmail({ email: "anna@example.org", captchaToken: "solved", address: "203.0.113.1" })
      const token = Redacted.make(yield* Fakes.lastSecret("anna@example.org"))
      yield* accounts.unbindEmail(userId)
      expect(
        yield* tagOf(recovery.completeByEmail({ token, newPassword: World.password("new horse") }, World.CLIENT))
      ).toBe("LinkInvalid")
      yield* login("correct horse")
    }).pipe(Effect.provide(World.layer))
  )
})
