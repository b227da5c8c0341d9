/** The two-factor routes of the Auth group: state, TOTP on and off, new backup codes. */
import type { Mfa } from "@veche/auth"
import { InvalidTwoFactorCode, TwoFactorAlreadyEnabled, TwoFactorNotEnabled } from "@veche/errors"
import { Effect, Redacted } from "effect"
import { requireUser } from "../Principal.ts"
import { formError, passwordMismatch, throttled } from "./FlowErrors.ts"

const notEnabled = { MfaNotEnabled: () => Effect.fail(new TwoFactorNotEnabled()) }
const badCode = { MfaCodeInvalid: () => Effect.fail(new InvalidTwoFactorCode()) }

export const make = (mfa: Mfa.Mfa["Service"]) => ({
  state: () =>
    Effect.gen(function* () {
      const user = yield* requireUser
      const status = yield* mfa.status(user.userId)
      return { totp_enabled: status.totpEnabled, backup_codes_left: status.backupCodesLeft }
    }),

  enableTotp: (payload: { readonly password: string; readonly secret: string; readonly code: string }) =>
    Effect.gen(function* () {
      const user = yield* requireUser
      const codes = yield* mfa.enable({
        userId: user.userId,
        password: Redacted.make(payload.password),
        secret: payload.secret,
        code: payload.code
      })
      return { backup_codes: codes }
    }).pipe(
      Effect.catchTags({
        ...passwordMismatch,
        ...badCode,
        ...throttled,
        MfaSecretInvalid: () =>
          Effect.fail(formError("secret", "BASE_TYPE_INVALID", "Must be base32, at least 16 characters.")),
        MfaAlreadyEnabled: () => Effect.fail(new TwoFactorAlreadyEnabled())
      })
    ),

  newBackupCodes: (payload: { readonly password: string }) =>
    Effect.gen(function* () {
      const user = yield* requireUser
      const codes = yield* mfa.regenerateBackupCodes({ userId: user.userId, password: Redacted.make(payload.password) })
      return { backup_codes: codes }
    }).pipe(Effect.catchTags({ ...passwordMismatch, ...notEnabled, ...throttled })),

  disableTotp: (payload: { readonly code: string }) =>
    Effect.gen(function* () {
      const user = yield* requireUser
      yield* mfa.disable({ userId: user.userId, code: payload.code })
    }).pipe(Effect.catchTags({ ...notEnabled, ...badCode, ...throttled }))
})
