/** How the account flows' refusals become API errors; shared by the Auth group's handlers. */
import {
  Banned,
  InvalidFormBody,
  InvalidTwoFactorCode,
  RateLimited,
  ServiceUnavailable,
  TwoFactorRequired
} from "@veche/errors"
import { RateLimitHeaders } from "@veche/ratelimit"
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"

export const formError = (field: string, code: string, message: string) => InvalidFormBody.field([field], code, message)

/**
 * A quota ran out (429 in the spec's shape, with Retry-After and the scope `shared`: the quota
 * belongs to a phone, an address or an account, not to the caller's route bucket) or a dependency
 * is down (503).
 */
export const throttled = {
  TooManyAttempts: (e: { readonly retryAfterMs: number }) =>
    Effect.andThen(
      HttpEffect.appendPreResponseHandler((_request, response) =>
        Effect.succeed(
          HttpServerResponse.setHeaders(
            response,
            RateLimitHeaders.exceeded({ retryAfterMs: e.retryAfterMs, scope: "shared" })
          )
        )
      ),
      Effect.fail(new RateLimited({ retry_after: e.retryAfterMs / 1000, global: false }))
    ),
  TemporarilyUnavailable: () => Effect.fail(new ServiceUnavailable())
}

/** The captcha is due and missing or unsolved: 400 50035 on `captcha_token`. */
export const captcha = {
  CaptchaNeeded: (e: { readonly reason: "required" | "invalid" }) =>
    Effect.fail(
      e.reason === "required"
        ? formError("captcha_token", "CAPTCHA_REQUIRED", "A captcha is required.")
        : formError("captcha_token", "CAPTCHA_INVALID", "The captcha was not solved.")
    )
}

/** A signed-in route re-checked the password: 400 50035 on `password`, as the mirrored platform. */
export const passwordMismatch = {
  PasswordMismatch: () => Effect.fail(formError("password", "PASSWORD_DOES_NOT_MATCH", "Password does not match."))
}

/** A platform block: 403 40007 with the reason and term in the message. */
export const blocked = {
  AccountBlocked: (e: { readonly message: string }) => Effect.fail(new Banned({ message: e.message }))
}

/** The second factor at login or recovery: missing (401 60003, `mfa: true`) or wrong (401 60008). */
export const secondFactor = {
  MfaRequired: () => Effect.fail(new TwoFactorRequired()),
  MfaCodeInvalid: () => Effect.fail(new InvalidTwoFactorCode())
}
