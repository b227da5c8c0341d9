/**
 * The accounts domain's refusals (@veche/auth: registration, login, two-factor, recovery, sessions
 * and tokens, phone and e-mail change) as the API's errors, in one table, like `GuildRefusals`
 * (deletion and export: `PrivacyRefusals`; staff: `ModerationRefusals`). `refuse` maps each
 * refusal to its error and passes anything else
 * through, and its type does the same, so a handler's error type is exactly the errors its endpoint
 * declares. `refusing` does the same to an effect and also sets the headers a refusal carries
 * (a quota's 429 tells when to retry).
 *
 * A refusal answers the same on every route, except where a route's spec says otherwise: those
 * overrides are below the table, each with its reason.
 */
import type { RegistrationErrors, SessionsErrors } from "@veche/auth"
import {
  Banned,
  Conflict,
  EmailLinkInvalid,
  Forbidden,
  InvalidAuthenticationToken,
  InvalidFormBody,
  InvalidTwoFactorCode,
  PhoneCodeInvalid,
  RateLimited,
  ServiceUnavailable,
  TwoFactorAlreadyEnabled,
  TwoFactorNotEnabled,
  TwoFactorRequired,
  Unauthorized,
  unstacked
} from "@veche/errors"
import { RateLimitHeaders } from "@veche/ratelimit"
import { Effect } from "effect"
import { HttpEffect, HttpServerResponse } from "effect/http"
import * as RefusalTable from "./RefusalTable.ts"

/** 400 50035 with one problem on one field, as the mirrored platform answers a refused form. */
const onField = (field: string, code: string, message: string) => InvalidFormBody.field([field], code, message)

const table = {
  // Registration, login and recovery.
  /** The captcha is due and missing or unsolved. */
  CaptchaNeeded: (refusal: RegistrationErrors.CaptchaNeeded) =>
    refusal.reason === "required"
      ? onField("captcha_token", "CAPTCHA_REQUIRED", "A captcha is required.")
      : onField("captcha_token", "CAPTCHA_INVALID", "The captcha was not solved."),
  /**
   * A quota ran out: 429 in the spec's shape; `refusing` adds Retry-After and the scope `shared`
   * (the quota belongs to a phone, an address or an account, not to the caller's route bucket).
   */
  TooManyAttempts: (refusal: RegistrationErrors.TooManyAttempts) =>
    new RateLimited({ retry_after: refusal.retryAfterMs / 1000, global: false }),
  /** E-mail registration from Russia: the spec's bare 403 (the methods route tells clients beforehand). */
  EmailRegistrationNotOffered: () => new Forbidden(),
  /** A dependency (counters, captcha, SMS or mail provider) is down. */
  TemporarilyUnavailable: () => new ServiceUnavailable(),
  /** A phone check is missing, of another purpose, expired, used up, or its code is wrong. */
  CodeInvalid: () => new PhoneCodeInvalid(),
  /** An e-mail link is unknown, used, expired or no longer the account's. */
  LinkInvalid: () => new EmailLinkInvalid(),
  UsernameTaken: () => onField("username", "USERNAME_ALREADY_TAKEN", "Username is unavailable. Try another."),
  PhoneTaken: () => onField("phone", "PHONE_ALREADY_REGISTERED", "This phone number is already registered."),
  EmailTaken: () => onField("email", "EMAIL_ALREADY_REGISTERED", "Email is already registered."),
  /** Wrong login or password: the same answer for both, so logins cannot be probed. */
  BadCredentials: () => new InvalidAuthenticationToken(),

  // Two-factor authentication.
  MfaRequired: () => new TwoFactorRequired(),
  MfaCodeInvalid: () => new InvalidTwoFactorCode(),
  MfaNotEnabled: () => new TwoFactorNotEnabled(),
  MfaAlreadyEnabled: () => new TwoFactorAlreadyEnabled(),
  MfaSecretInvalid: () => onField("secret", "BASE_TYPE_INVALID", "Must be base32, at least 16 characters."),
  /** A signed-in route re-checked the password: a form error on `password`, as the mirrored platform. */
  PasswordMismatch: () => onField("password", "PASSWORD_DOES_NOT_MATCH", "Password does not match."),

  // Sessions and tokens.
  /**
   * Missing or expired credentials answer 401 40001 (clients refresh or log in), anything not valid
   * 401 50014. Without stack traces: token guessing is traffic to answer cheaply.
   */
  TokenExpired: () => unstacked(() => new Unauthorized()),
  TokenInvalid: () => unstacked(() => new InvalidAuthenticationToken()),
  RefreshRejected: () => new InvalidAuthenticationToken(),
  /** A platform block: 403 40007 with the reason and term in the message. */
  AccountBlocked: (refusal: SessionsErrors.AccountBlocked) => new Banned({ message: refusal.message }),

  // E-mail address of an account.
  NothingPending: () => onField("email", "EMAIL_NOT_PENDING", "No address waits for confirmation.")
} as const

/**
 * The phone-change routes (POST and PUT /users/@me/phone): a number that already has an account
 * answers 409, as the spec lists for POST /users/@me/phone (PUT answers the same when the number
 * was taken between the two steps). At registration the same refusal is a form error on `phone`
 * (400 50035): there the number is a field of the form being filled in.
 */
const phoneChange = {
  ...table,
  PhoneTaken: () => new Conflict({ message: "This phone number is already registered." })
} as const

/** The API error a refusal becomes under a table (this domain's by default); others stay as they are. */
export type ApiErrorOf<E, T extends RefusalTable.Table = typeof table> = RefusalTable.ApiErrorOf<E, T>

const { refuseWith, tagOf } = RefusalTable

/** The headers a refusal's answer carries besides its body: a quota's retry time and scope. */
const headersOf = (error: unknown) =>
  tagOf(error) === "TooManyAttempts"
    ? RateLimitHeaders.exceeded({
        retryAfterMs: (error as RegistrationErrors.TooManyAttempts).retryAfterMs,
        scope: "shared"
      })
    : undefined

const refusingWith =
  <T extends RefusalTable.Table>(refusals: T) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) => {
    const toApi = refuseWith(refusals)
    return Effect.catch(self, (error) => {
      const headers = headersOf(error)
      const failure = Effect.fail(toApi(error))
      return headers === undefined
        ? failure
        : Effect.andThen(
            HttpEffect.appendPreResponseHandler((_request, response) =>
              Effect.succeed(HttpServerResponse.setHeaders(response, headers))
            ),
            failure
          )
    })
  }

/** A refusal as its API error (no headers): for the Authorization middleware's token refusals. */
export const refuse = refuseWith(table)

/** An account flow's effect with its refusals as API errors and their headers set. */
export const refusing = refusingWith(table)

/** `refusing` for the phone-change routes (see `phoneChange`). */
export const refusingPhoneChange = refusingWith(phoneChange)
