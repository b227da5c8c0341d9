/**
 * Two-factor authentication: TOTP set up with a secret the client generated (proved by one current
 * code), backup codes, and the code check that login and turning 2FA off use.
 *
 * A time step is accepted at most once per user (the store's compare-and-set of the last step,
 * the step used to enable included), and a backup code once (a conditional delete). Wrong codes
 * are counted per account on their own counter, so guessing meets 429 long before it could win.
 * Recovery never turns 2FA off; only a valid code does.
 */
import { SecretBox, type Snowflake, Spans } from "@veche/platform"
import { QuotaLimiter } from "@veche/ratelimit"
import { Clock, Context, DateTime, Effect, Layer, Option, type Redacted } from "effect"
import * as BackupCodes from "./BackupCodes.ts"
import { MfaCodeInvalid, MfaNotEnabled, MfaRequired, MfaSecretInvalid, type PasswordMismatch } from "./MfaErrors.ts"
import { type MfaAlreadyEnabled, MfaRepo, type TotpRecord } from "./MfaRepo.ts"
import { PasswordCheck } from "./PasswordCheck.ts"
import { fromQuota, type TemporarilyUnavailable, type TooManyAttempts } from "./RegistrationErrors.ts"
import * as Totp from "./Totp.ts"
import { TotpCodes } from "./TotpCodes.ts"

export interface MfaStatus {
  readonly totpEnabled: boolean
  readonly backupCodesLeft: number
}

type Throttled = TooManyAttempts | TemporarilyUnavailable

export class Mfa extends Context.Service<
  Mfa,
  {
    readonly status: (userId: Snowflake.Snowflake) => Effect.Effect<MfaStatus>
    /** Turns TOTP on; answers the first backup codes (shown once). */
    readonly enable: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
      readonly secret: string
      readonly code: string
    }) => Effect.Effect<
      ReadonlyArray<string>,
      PasswordMismatch | MfaSecretInvalid | MfaCodeInvalid | MfaAlreadyEnabled | Throttled
    >
    /** A new set of backup codes; the old set stops working. */
    readonly regenerateBackupCodes: (request: {
      readonly userId: Snowflake.Snowflake
      readonly password: Redacted.Redacted<string>
    }) => Effect.Effect<ReadonlyArray<string>, PasswordMismatch | MfaNotEnabled | Throttled>
    /** Turns TOTP off with an app or backup code; the backup codes go with it. */
    readonly disable: (request: {
      readonly userId: Snowflake.Snowflake
      readonly code: string
    }) => Effect.Effect<void, MfaNotEnabled | MfaCodeInvalid | Throttled>
    /**
     * Login's second factor, after the password was right: nothing to do when 2FA is off; otherwise
     * the code must be a fresh app code or an unused backup code. `known`: the TOTP record as the
     * login's account lookup read it (none: 2FA off), so it is not read again.
     */
    readonly checkLogin: (
      userId: Snowflake.Snowflake,
      code: string | undefined,
      known?: Option.Option<TotpRecord>
    ) => Effect.Effect<void, MfaRequired | MfaCodeInvalid | Throttled>
  }
>()("@veche/auth/Mfa") {
  static readonly layer: Layer.Layer<
    Mfa,
    never,
    MfaRepo | PasswordCheck | QuotaLimiter.QuotaLimiter | SecretBox.SecretBox | TotpCodes
  > = Layer.effect(
    Mfa,
    Effect.gen(function* () {
      const repo = yield* MfaRepo
      const passwords = yield* PasswordCheck
      const quotas = yield* QuotaLimiter.QuotaLimiter
      const box = yield* SecretBox.SecretBox
      const totpCodes = yield* TotpCodes

      // The user id binds a sealed secret to its row: copied to another user, it does not open.
      const associatedData = (userId: Snowflake.Snowflake) => `totp:${userId}`

      const freshSet = Effect.sync(() => {
        const codes = BackupCodes.generateSet()
        // Hashed from the normalised form, which is what a submitted code is compared in.
        const hashes = codes.map((code) => BackupCodes.hash(BackupCodes.normalise(code) ?? code))
        return { codes, hashes }
      })

      /** Uses the code if it is a fresh app code or an unused backup code of this user. */
      const useCode = Effect.fnUntraced(function* (totp: TotpRecord, code: string) {
        if (Totp.isCodeShape(code)) {
          // A secret that no longer opens (its key was dropped from SERVICE_SECRET_KEYS) cannot
          // check app codes; backup codes still work, so the person is not locked out by a 500.
          const secret = yield* box.open(totp.secretEnvelope, associatedData(totp.userId)).pipe(
            Effect.map(Option.some),
            Effect.catchTag("SecretBoxError", (e) =>
              Effect.as(
                Effect.logError(`TOTP secret of user ${totp.userId} cannot be opened: ${e.reason}`),
                Option.none()
              )
            )
          )
          if (Option.isNone(secret)) return false
          const step = yield* totpCodes.matchStep(secret.value, code, yield* Clock.currentTimeMillis, totp.lastStep)
          return step !== undefined && (yield* repo.useStep(totp.userId, step))
        }
        const backup = BackupCodes.normalise(code)
        if (backup === undefined) return false
        const stored = yield* repo.unusedBackupCodes(totp.userId)
        const match = stored.find((candidate) => BackupCodes.matches(candidate.hash, backup))
        return match !== undefined && (yield* repo.useBackupCode(totp.userId, match.id))
      })

      /**
       * Runs a guess against the failure budget: a unit is taken first (so parallel guesses cannot
       * all pass a check made before any is counted) and given back when the guess was right.
       */
      const budgeted = Effect.fnUntraced(function* (userId: Snowflake.Snowflake, guess: Effect.Effect<boolean>) {
        const key = `user:${userId}`
        yield* quotas.consume("failedMfaPerAccount", key).pipe(Effect.catchTags(fromQuota))
        if (!(yield* guess)) return yield* new MfaCodeInvalid()
        yield* quotas.giveBack("failedMfaPerAccount", key)
      })

      /** A code for a user with TOTP on, against the failure budget. */
      const verifyCode = (totp: TotpRecord, code: string) => budgeted(totp.userId, useCode(totp, code.trim()))

      const status = Spans.fn("Mfa.status")(function* (userId: Snowflake.Snowflake) {
        const totp = yield* repo.find(userId)
        if (Option.isNone(totp)) return { totpEnabled: false, backupCodesLeft: 0 }
        return { totpEnabled: true, backupCodesLeft: (yield* repo.unusedBackupCodes(userId)).length }
      })

      const enable = Spans.fn("Mfa.enable")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
        readonly secret: string
        readonly code: string
      }) {
        yield* passwords.verify(request.userId, request.password)
        const secret = Totp.normaliseSecret(request.secret)
        if (secret === undefined) return yield* new MfaSecretInvalid()
        const step = yield* totpCodes.matchStep(secret, request.code.trim(), yield* Clock.currentTimeMillis)
        // The verdict is told only once its unit is taken.
        yield* budgeted(request.userId, Effect.succeed(step !== undefined))
        if (step === undefined) return yield* new MfaCodeInvalid()
        const { codes, hashes } = yield* freshSet
        yield* repo.enable(
          {
            userId: request.userId,
            secretEnvelope: yield* box.seal(secret, associatedData(request.userId)),
            // The code that proved the secret counts as used.
            lastStep: step,
            enabledAt: yield* DateTime.now
          },
          hashes
        )
        return codes
      })

      const regenerateBackupCodes = Spans.fn("Mfa.regenerateBackupCodes")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly password: Redacted.Redacted<string>
      }) {
        yield* passwords.verify(request.userId, request.password)
        const { codes, hashes } = yield* freshSet
        if (!(yield* repo.replaceBackupCodes(request.userId, hashes))) return yield* new MfaNotEnabled()
        return codes
      })

      const disable = Spans.fn("Mfa.disable")(function* (request: {
        readonly userId: Snowflake.Snowflake
        readonly code: string
      }) {
        const totp = yield* repo.find(request.userId)
        if (Option.isNone(totp)) return yield* new MfaNotEnabled()
        yield* verifyCode(totp.value, request.code)
        yield* repo.disable(request.userId)
      })

      // Untraced: it runs on every login, and with 2FA off it is one check of what the lookup read.
      const checkLogin = Effect.fnUntraced(function* (
        userId: Snowflake.Snowflake,
        code: string | undefined,
        known?: Option.Option<TotpRecord>
      ) {
        const totp = known ?? (yield* repo.find(userId))
        if (Option.isNone(totp)) return
        if (code === undefined || code.trim() === "") return yield* new MfaRequired()
        yield* verifyCode(totp.value, code)
      })

      return Mfa.of({ status, enable, regenerateBackupCodes, disable, checkLogin })
    })
  )
}
