/**
 * The accounts domain's refusal table: every refusal a handler can meet becomes a catalogue error,
 * and the one per-route difference (a taken phone: 400 50035 at registration, 409 on phone change)
 * stays as the spec has it. The HTTP answers themselves are pinned by the scenarios in test/.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  AccountDeletion,
  AccountsErrors,
  DataExportsRepo,
  EmailBinding,
  Login,
  MfaErrors,
  MfaRepo,
  RegistrationErrors,
  SessionsErrors
} from "@veche/auth"
import { UsersErrors } from "@veche/users"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { refuse, refusing, refusingPhoneChange } from "../src/handlers/AuthRefusals.ts"

const refusals = [
  [new RegistrationErrors.CaptchaNeeded({ reason: "required" }), "InvalidFormBody"],
  [new RegistrationErrors.CaptchaNeeded({ reason: "invalid" }), "InvalidFormBody"],
  [new RegistrationErrors.TooManyAttempts({ retryAfterMs: 1500 }), "RateLimited"],
  [new RegistrationErrors.TemporarilyUnavailable({ what: "sms" }), "ServiceUnavailable"],
  [new RegistrationErrors.CodeInvalid(), "PhoneCodeInvalid"],
  [new RegistrationErrors.LinkInvalid(), "EmailLinkInvalid"],
  [new UsersErrors.UsernameTaken({ username: "taken" }), "InvalidFormBody"],
  [new AccountsErrors.PhoneTaken(), "InvalidFormBody"],
  [new AccountsErrors.EmailTaken(), "InvalidFormBody"],
  [new Login.BadCredentials(), "InvalidAuthenticationToken"],
  [new MfaErrors.MfaRequired(), "TwoFactorRequired"],
  [new MfaErrors.MfaCodeInvalid(), "InvalidTwoFactorCode"],
  [new MfaErrors.MfaNotEnabled(), "TwoFactorNotEnabled"],
  [new MfaRepo.MfaAlreadyEnabled(), "TwoFactorAlreadyEnabled"],
  [new MfaErrors.MfaSecretInvalid(), "InvalidFormBody"],
  [new MfaErrors.PasswordMismatch(), "InvalidFormBody"],
  [new SessionsErrors.TokenExpired(), "Unauthorized"],
  [new SessionsErrors.TokenInvalid(), "InvalidAuthenticationToken"],
  [new SessionsErrors.RefreshRejected(), "InvalidAuthenticationToken"],
  [new SessionsErrors.AccountBlocked({ message: "blocked" }), "Banned"],
  [new EmailBinding.NothingPending(), "InvalidFormBody"],
  [new AccountDeletion.OwnsGuilds(), "InvalidFormBody"],
  [new DataExportsRepo.ExportInProgress(), "Conflict"]
] as const

const request = HttpServerRequest.fromWeb(new Request("http://localhost/api/v10/users/@me/phone"))
const failureOf = <E>(effect: Effect.Effect<never, E, HttpServerRequest.HttpServerRequest>) =>
  Effect.flip(Effect.provideService(effect, HttpServerRequest.HttpServerRequest, request))

describe("AuthRefusals", () => {
  it("turns every accounts-domain refusal into its catalogue error and leaves other errors alone", () => {
    for (const [refusal, api] of refusals) expect([refusal._tag, refuse(refusal)._tag]).toEqual([refusal._tag, api])
    const other = { _tag: "SomethingElse" } as const
    expect(refuse(other)).toBe(other)
  })

  it.effect("a taken phone: a form error on `phone` at registration, 409 on the phone-change routes", () =>
    Effect.gen(function* () {
      const registering = yield* failureOf(refusing(Effect.fail(new AccountsErrors.PhoneTaken())))
      expect(registering._tag).toBe("InvalidFormBody")
      expect(JSON.stringify(registering)).toContain("PHONE_ALREADY_REGISTERED")
      const changing = yield* failureOf(refusingPhoneChange(Effect.fail(new AccountsErrors.PhoneTaken())))
      expect(changing._tag).toBe("Conflict")
      // Everything else answers on the phone-change routes as on the others.
      const code = yield* failureOf(refusingPhoneChange(Effect.fail(new RegistrationErrors.CodeInvalid())))
      expect(code._tag).toBe("PhoneCodeInvalid")
    })
  )
})
