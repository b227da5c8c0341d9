/** The two-factor routes of the Auth group: state, TOTP on and off, new backup codes. */
import { Principal } from "@veche/api"
import type { Mfa } from "@veche/auth"
import { Effect, Redacted } from "effect"
import { refusing } from "./AuthRefusals.ts"

export const make = (mfa: Mfa.Mfa["Service"]) => ({
  state: () =>
    Effect.gen(function* () {
      const user = yield* Principal.requireUser
      const status = yield* mfa.status(user.userId)
      return { totp_enabled: status.totpEnabled, backup_codes_left: status.backupCodesLeft }
    }),

  enableTotp: (payload: { readonly password: string; readonly secret: string; readonly code: string }) =>
    Effect.gen(function* () {
      const user = yield* Principal.requireUser
      const codes = yield* mfa.enable({
        userId: user.userId,
        password: Redacted.make(payload.password),
        secret: payload.secret,
        code: payload.code
      })
      return { backup_codes: codes }
    }).pipe(refusing),

  newBackupCodes: (payload: { readonly password: string }) =>
    Effect.gen(function* () {
      const user = yield* Principal.requireUser
      const codes = yield* mfa.regenerateBackupCodes({ userId: user.userId, password: Redacted.make(payload.password) })
      return { backup_codes: codes }
    }).pipe(refusing),

  disableTotp: (payload: { readonly code: string }) =>
    Effect.gen(function* () {
      const user = yield* Principal.requireUser
      yield* mfa.disable({ userId: user.userId, code: payload.code })
    }).pipe(refusing)
})
