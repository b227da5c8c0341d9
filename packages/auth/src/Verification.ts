/**
 * A verification record: one code sent to one phone or e-mail for one purpose. It binds the code's
 * digest to its target and purpose so a code for registration can never complete a recovery, and it
 * carries its own attempt counter and expiry, which the stores check atomically on every use.
 */
import { Snowflake } from "@veche/platform"
import { Data, DateTime, type Duration, Schema } from "effect"

/** What the code proves; a record answers only to its own purpose (else 403 70003). */
export const Purpose = Schema.Literals(["register", "recover", "change_phone", "email_register"])
export type Purpose = typeof Purpose.Type

/**
 * How the code travels. `mobileid` is the carrier's own check (a 4-digit code, or none at all);
 * the others carry the service's 6-digit code.
 */
export const Channel = Schema.Literals(["sms", "messenger", "console", "mobileid", "email"])
export type Channel = typeof Channel.Type

/** The status `GET /auth/verify/{id}` reports. `failed` is final: a failed record never succeeds. */
export const Status = Schema.Literals(["pending", "needs_code", "ok", "failed"])
export type Status = typeof Status.Type

/** Carrier codes have 4 digits, the service's own codes 6. */
export const CodeLength = Schema.Literals([4, 6])
export type CodeLength = typeof CodeLength.Type

/** Wrong submissions a record tolerates; the next submission burns it (security.md, "Phone codes"). */
export const DEFAULT_MAX_ATTEMPTS = 5

export const Verification = Schema.Struct({
  id: Snowflake.Snowflake,
  purpose: Purpose,
  /** The normalised phone (`+7XXXXXXXXXX`) or e-mail address the code was sent to. */
  target: Schema.String,
  channel: Channel,
  /** HMAC-SHA256 of the code under the server key, made by the caller; the code itself is never stored. */
  codeDigest: Schema.String,
  codeLength: CodeLength,
  status: Status,
  /** Wrong submissions so far; never more than `maxAttempts`. */
  attempts: Schema.Int,
  maxAttempts: Schema.Int,
  createdAt: Schema.DateTimeUtc,
  expiresAt: Schema.DateTimeUtc,
  /** Set by the one successful submission; a consumed record never succeeds again. */
  consumedAt: Schema.NullOr(Schema.DateTimeUtc),
  /** The account the record concerns (recover, change_phone); null for registrations. */
  userId: Schema.NullOr(Snowflake.Snowflake),
  /** The one switch from mobile-ID to the service's SMS code has happened (a repeat sends nothing). */
  smsSwitched: Schema.Boolean
})
export type Verification = typeof Verification.Type

/**
 * A new record for a code just issued: 6 digits waiting for the code, or (carrier) a 4-digit
 * carrier check waiting for its call.
 */
export const fresh = (options: {
  readonly id: Snowflake.Snowflake
  readonly purpose: Purpose
  readonly target: string
  readonly channel: Channel
  readonly codeDigest: string
  readonly now: DateTime.Utc
  readonly ttl: Duration.Duration
  readonly carrier?: boolean | undefined
  readonly userId?: Snowflake.Snowflake | undefined
}): Verification => ({
  id: options.id,
  purpose: options.purpose,
  target: options.target,
  channel: options.channel,
  codeDigest: options.codeDigest,
  codeLength: options.carrier === true ? 4 : 6,
  status: options.carrier === true ? "pending" : "needs_code",
  attempts: 0,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  createdAt: options.now,
  expiresAt: DateTime.addDuration(options.now, options.ttl),
  consumedAt: null,
  userId: options.userId ?? null,
  smsSwitched: false
})

/** Open = still able to succeed, expiry aside: neither consumed nor burned. */
export const isOpen = (record: Verification): boolean =>
  record.consumedAt === null && record.status !== "failed" && record.attempts < record.maxAttempts

/**
 * The outcome of submitting a code. `NotFound` covers a missing record, another purpose and an
 * expired record alike, because the API answers all three with the same 403 70003.
 */
export type ConsumeResult = Data.TaggedEnum<{
  /** The code was right and this submission is the one that used the record. */
  Consumed: { readonly record: Verification }
  /**
   * The code was right and the attempt counted, but the record was left open (`consume` with
   * `hold`): the flow still needs a second factor before `consumeMatched` may use it.
   */
  Matched: { readonly record: Verification }
  /** The code was wrong; the attempt has been counted. */
  WrongCode: { readonly attemptsLeft: number }
  /** The record is used up: consumed before, burned by too many attempts, or invalidated. */
  Burned: Record<never, never>
  NotFound: Record<never, never>
}>
export const ConsumeResult = Data.taggedEnum<ConsumeResult>()

/** Another record already has this id (ids come from the Snowflake generator, so this is a bug). */
export class VerificationIdTaken extends Schema.TaggedError<VerificationIdTaken>()("VerificationIdTaken", {
  id: Schema.String
}) {}

/** No open record has this id: it is missing, consumed or burned, so it cannot be changed. */
export class VerificationNotOpen extends Schema.TaggedError<VerificationNotOpen>()("VerificationNotOpen", {
  id: Schema.String
}) {}
