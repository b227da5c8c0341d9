/**
 * The domains' quotas, in one table: how many times an identity (a phone, an address, an account)
 * may do a costly or abusable thing in a window. Counted atomically before the side effect and the
 * same way for known and unknown identities, so answers and timing reveal nothing.
 */
const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

export interface Quota {
  readonly limit: number
  readonly windowMs: number
}

export const DEFAULT_QUOTAS = {
  /** Registration, phone change and recovery codes share it (spec: 3 per phone per hour). */
  smsPerPhone: { limit: 3, windowMs: HOUR },
  /** Against SMS pumping: many numbers from one address. */
  smsPerAddress: { limit: 10, windowMs: HOUR },
  /** Against SMS pumping from many addresses: a ceiling for the whole service. */
  smsGlobal: { limit: 2_000, windowMs: HOUR },
  /** E-mail registration codes from one client address (a letter per attempt). */
  registrationLettersPerAddress: { limit: 10, windowMs: HOUR },
  recoverEmailPerAddress: { limit: 10, windowMs: HOUR },
  recoverEmailPerEmail: { limit: 3, windowMs: HOUR },
  /** E-mail add/resend: one request a minute, 5 letters per address and per user an hour. */
  emailRequestPerUser: { limit: 1, windowMs: MINUTE },
  emailLettersPerAddress: { limit: 5, windowMs: HOUR },
  emailLettersPerUser: { limit: 5, windowMs: HOUR },
  dataExportPerUser: { limit: 1, windowMs: DAY },
  /**
   * Failed logins per account: past this a captcha is required, never a refusal — a stranger who
   * fails from many addresses must not lock the owner out. The hard limits are the two below.
   */
  failedLoginsPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  /** Failed logins on one account from one address: past it, 429 until the window passes. */
  failedLoginsPerAccountAddress: { limit: 10, windowMs: 15 * MINUTE },
  /** Failed logins from one address on any accounts: past it, 429. */
  failedLoginsPerAddress: { limit: 50, windowMs: 15 * MINUTE },
  /**
   * Wrong two-factor codes (app or backup) per account, its own counter: a million 6-digit codes
   * against 10 tries per 15 minutes (app codes live 90 s) keeps guessing hopeless.
   */
  failedMfaPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  /** Wrong passwords on signed-in routes that re-check it (2FA set-up, backup codes). */
  failedPasswordChecksPerAccount: { limit: 10, windowMs: 15 * MINUTE },
  /** "Captcha after the first attempt from an address" for registration, login and recovery starts. */
  captchaFreeAttempts: { limit: 1, windowMs: HOUR }
} as const satisfies Record<string, Quota>

export type Name = keyof typeof DEFAULT_QUOTAS

/**
 * Quotas whose key is a client address (optionally after a scope and "@", as `login@2001:db8::1`):
 * counted per address group, so an IPv6 client counts by its /64 and its /48 with `NETWORK_FACTOR`
 * times the limit (`AddressGroups`), and an IPv4-mapped address as its IPv4 address.
 */
export const ADDRESS_QUOTAS: ReadonlySet<Name> = new Set<Name>([
  "smsPerAddress",
  "registrationLettersPerAddress",
  "recoverEmailPerAddress",
  "failedLoginsPerAddress",
  "failedLoginsPerAccountAddress",
  "captchaFreeAttempts"
])
