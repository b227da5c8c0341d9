/**
 * Time-based one-time codes (RFC 6238 as authenticator apps do it: SHA-1, 6 digits, 30 s): the
 * constants and the pure checks that come before any code is computed. Computing and matching
 * codes is the `TotpCodes` port's (otplib in `@veche/otplib`). The server's clock alone decides the
 * time step; a code from the step before or after is accepted to absorb clock drift and typing
 * time. Which steps were already used is the caller's business (the MFA store keeps the last one
 * per user), so a code is accepted at most once.
 */

export const PERIOD_SECONDS = 30
export const DIGITS = 6

/** The spec's minimum: 16 base32 characters (10 bytes); apps generate 32 (20 bytes). */
export const MIN_SECRET_CHARS = 16
/** A bound on what a client may send: 128 characters is 80 bytes, four times what apps use. */
export const MAX_SECRET_CHARS = 128

/** The shortest secret in bytes (16 base32 characters); an implementation must accept it. */
export const MIN_SECRET_BYTES = (MIN_SECRET_CHARS * 5) / 8
/** The longest secret in bytes (128 base32 characters); an implementation must accept it. */
export const MAX_SECRET_BYTES = (MAX_SECRET_CHARS * 5) / 8

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

/** Six digits, nothing else (checked before a code reaches the implementation). */
export const isCodeShape = (code: string): boolean => /^\d{6}$/.test(code)
