/** @veche/otplib: TOTP codes (RFC 6238, `otplib`) behind `@veche/auth`'s TotpCodes. */
export * as OtplibTotpCodes from "./OtplibTotpCodes.ts"
