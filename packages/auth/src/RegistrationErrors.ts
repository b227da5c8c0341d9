/** Why a registration step was refused, as data. */
import type { QuotaLimiter, Quotas } from "@veche/ratelimit"
import { Effect, Schema } from "effect"

type QuotaError = QuotaLimiter.QuotaExceeded | QuotaLimiter.QuotaUnavailable

/** A captcha is due (not the first attempt from this address) and none, or a bad one, was sent. */
export class CaptchaNeeded extends Schema.TaggedError<CaptchaNeeded>()("CaptchaNeeded", {
  reason: Schema.Literals(["required", "invalid"])
}) {}

/** A quota ran out (SMS per phone, per address, for the service); retry after this long. */
export class TooManyAttempts extends Schema.TaggedError<TooManyAttempts>()("TooManyAttempts", {
  retryAfterMs: Schema.Number
}) {}

/** Something the step needs is down (counter store, captcha or SMS provider): nothing was sent. */
export class TemporarilyUnavailable extends Schema.TaggedError<TemporarilyUnavailable>()("TemporarilyUnavailable", {
  what: Schema.String
}) {}

/** E-mail registration is not offered where the client is (Russia: phone only); nothing was sent. */
export class EmailRegistrationNotOffered extends Schema.TaggedError<EmailRegistrationNotOffered>()(
  "EmailRegistrationNotOffered",
  {}
) {}

/** The verification is missing, of another purpose, expired, used up or the code is wrong (70003). */
export class CodeInvalid extends Schema.TaggedError<CodeInvalid>()("CodeInvalid", {}) {}

/** A quota's refusal in the flows' terms: used up → TooManyAttempts, store down → unavailable. */
export const fromQuota = {
  QuotaExceeded: (e: { readonly retryAfterMs: number }) =>
    Effect.fail(new TooManyAttempts({ retryAfterMs: e.retryAfterMs })),
  QuotaUnavailable: () => Effect.fail(new TemporarilyUnavailable({ what: "counters" }))
}

/** The e-mail link is unknown, used, expired, or its address is no longer the account's (70004). */
export class LinkInvalid extends Schema.TaggedError<LinkInvalid>()("LinkInvalid", {}) {}

/** Counts one use of a quota, refusing in the flows' terms (see fromQuota). */
export const countWith =
  (quotas: { readonly consume: (quota: Quotas.Name, key: string) => Effect.Effect<unknown, QuotaError> }) =>
  (quota: Quotas.Name, key: string) =>
    Effect.asVoid(quotas.consume(quota, key).pipe(Effect.catchTags(fromQuota)))

/**
 * The quotas every SMS code counts against before it is sent, the same for numbers with and without
 * an account: 3 per phone an hour (registration, recovery and phone change share it), per client
 * address, and for the whole service.
 */
export const countSmsCode = (count: ReturnType<typeof countWith>, phone: string, address: string) =>
  Effect.andThen(
    count("smsPerPhone", phone),
    Effect.andThen(count("smsPerAddress", address), count("smsGlobal", "all"))
  )
