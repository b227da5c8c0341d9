/**
 * Time-based one-time codes (RFC 6238 as authenticator apps do it: SHA-1, 6 digits, 30 s), over
 * otplib. The server's clock alone decides the time step; a code from the step before or after is
 * accepted to absorb clock drift and typing time. Which steps were already used is the caller's
 * business (the MFA store keeps the last one per user), so a code is accepted at most once.
 */
import { createGuardrails, generateSync, verifySync } from "otplib"

export const PERIOD_SECONDS = 30
export const DIGITS = 6

/** The spec's minimum: 16 base32 characters (10 bytes); apps generate 32 (20 bytes). */
export const MIN_SECRET_CHARS = 16
/** A bound on what a client may send: 128 characters is 80 bytes, four times what apps use. */
export const MAX_SECRET_CHARS = 128

// otplib refuses secrets under 16 bytes by default (the spec allows 16 base32 characters, 10 bytes)
// and over 64 (it threw on the 80 bytes of our longest accepted secret: a 500 at enable).
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10, MAX_SECRET_BYTES: (MAX_SECRET_CHARS * 5) / 8 })

/**
 * A client's secret as the server keeps it: spaces and `=` padding removed, upper case (apps show
 * it grouped, in either case). None when it is not base32 or too short or long.
 */
export const normaliseSecret = (input: string): string | undefined => {
  const secret = input.replace(/[\s=]/g, "").toUpperCase()
  if (secret.length < MIN_SECRET_CHARS || secret.length > MAX_SECRET_CHARS) return undefined
  return /^[A-Z2-7]+$/.test(secret) ? secret : undefined
}

/** The RFC 6238 time step at this instant. */
export const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / PERIOD_SECONDS)

/** Six digits, nothing else (otplib throws on anything else, so it is checked first). */
export const isCodeShape = (code: string): boolean => /^\d{6}$/.test(code)

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
  if (!isCodeShape(code)) return undefined
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: PERIOD_SECONDS,
    guardrails,
    ...(afterStep === undefined ? {} : { afterTimeStep: afterStep })
  })
  // The result type also covers HOTP, which has no time step; a TOTP success always has one.
  return result.valid && "timeStep" in result ? result.timeStep : undefined
}

/** The code an app shows at this instant (for tests and the dev tooling). */
export const codeAt = (secret: string, nowMs: number): string =>
  generateSync({ secret, epoch: Math.floor(nowMs / 1000), guardrails })
