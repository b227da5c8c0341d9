/**
 * `@veche/auth`'s TotpCodes with otplib: SHA-1, 6 digits, 30 s steps (`Totp.PERIOD_SECONDS`), a
 * code from the step before or after accepted, and otplib's `afterTimeStep` for replay protection.
 *
 * `codeAt` and `matchStep` are also exported as plain functions, for tests and dev tooling that
 * compute the code an app would show.
 */
import { Totp, TotpCodes } from "@veche/auth"
import { Effect, Layer } from "effect"
import { createGuardrails, generateSync, verifySync } from "otplib"

// otplib refuses secrets under 16 bytes by default (the spec allows 16 base32 characters, 10 bytes)
// and over 64 (it threw on the 80 bytes of our longest accepted secret: a 500 at enable).
// Totp.MIN_SECRET_BYTES is 10, Totp.MAX_SECRET_BYTES 80.
const guardrails = createGuardrails({
  MIN_SECRET_BYTES: Totp.MIN_SECRET_BYTES,
  MAX_SECRET_BYTES: Totp.MAX_SECRET_BYTES
})

/**
 * The time step a code belongs to, if it is right for this secret now (current step ±1) and later
 * than `afterStep` (the last step the user has used).
 */
export const matchStep = (
  secret: string,
  code: string,
  nowMs: number,
  afterStep?: number | undefined
): number | undefined => {
  // otplib throws on anything but digits of the right length, so the shape is checked first.
  if (!Totp.isCodeShape(code)) return undefined
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: Totp.PERIOD_SECONDS,
    guardrails,
    ...(afterStep === undefined ? {} : { afterTimeStep: afterStep })
  })
  // The result type also covers HOTP, which has no time step; a TOTP success always has one.
  return result.valid && "timeStep" in result ? result.timeStep : undefined
}

/** The code an app shows at this instant (for tests and the dev tooling). */
export const codeAt = (secret: string, nowMs: number): string =>
  generateSync({ secret, epoch: Math.floor(nowMs / 1000), guardrails })

/** The service over the functions above (the work is synchronous and small: an HMAC or three). */
export const layer: Layer.Layer<TotpCodes.TotpCodes> = Layer.succeed(
  TotpCodes.TotpCodes,
  TotpCodes.TotpCodes.of({
    codeAt: (secret, nowMs) => Effect.sync(() => codeAt(secret, nowMs)),
    matchStep: (secret, code, nowMs, afterStep) => Effect.sync(() => matchStep(secret, code, nowMs, afterStep))
  })
)
