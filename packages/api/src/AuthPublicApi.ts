/**
 * The public auth group: registration, login, token refresh, verification state and account
 * recovery, and the bodies they take. No credentials: these are how a client gets them. Pure data.
 */
import * as Phone from "@veche/auth/Phone"
import {
  Banned,
  EmailLinkInvalid,
  Forbidden,
  InvalidAuthenticationToken,
  InvalidFormBody,
  InvalidTwoFactorCode,
  PhoneCodeInvalid,
  RateLimited,
  ServiceUnavailable,
  TwoFactorRequired
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import * as PublicUser from "@veche/users/PublicUser"
import { Clock, Effect, Schema, SchemaGetter, SchemaIssue } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Fields from "./Fields.ts"
import { NoStore } from "./NoStore.ts"

/**
 * architecture.md §6: the pair every login, registration, refresh and recovery answers; each of those
 * routes declares `NoStore`, so no cache keeps it.
 */
export const TokenPair = Schema.Struct({
  access_token: Schema.String,
  refresh_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  /** seconds */
  expires_in: Schema.Int,
  user_id: Snowflake.Snowflake
})

const length = Fields.betweenLength

export const RegisterPhoneBody = Schema.Struct({
  phone: Phone.PhoneNumber,
  captcha_token: Schema.optionalKey(Schema.String.pipe(Schema.check(Fields.maxLength(4096))))
})

export const RegisterPhoneAnswer = Schema.Struct({
  verification_id: Snowflake.Snowflake,
  /** seconds */
  expires_in: Schema.Int,
  /** masked */
  phone: Schema.String,
  channel: Schema.Literals(["sms", "messenger", "console"])
})

export const Username = Schema.String.pipe(
  Schema.check(
    length(2, 32),
    Schema.isPattern(/^[a-z0-9_.]*$/, {
      message: "Only lowercase letters, digits, underscores and periods.",
      formCode: "USERNAME_INVALID_CHARACTERS"
    }),
    // the names erased accounts keep
    Schema.makeFilter((name: string) => !name.startsWith(PublicUser.ANONYMOUS_PREFIX), {
      message: `Username cannot begin with "${PublicUser.ANONYMOUS_PREFIX}".`,
      formCode: "USERNAME_INVALID_CONTAINS"
    })
  )
)

const MIN_AGE = 14

/** YYYY-MM-DD, a real date, and at least 14 years before today (today from the Clock). */
export const DateOfBirth = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/, { message: "Invalid date.", formCode: "DATE_TYPE_PARSE" })),
  Schema.decode({
    decode: SchemaGetter.checkEffect((iso: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const date = new Date(`${iso}T00:00:00Z`)
        if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) {
          return new SchemaIssue.InvalidValue({ message: "Invalid date.", formCode: "DATE_TYPE_PARSE" }, iso)
        }
        const limit = new Date(now)
        limit.setUTCFullYear(limit.getUTCFullYear() - MIN_AGE)
        return date.getTime() <= limit.getTime()
          ? undefined
          : new SchemaIssue.InvalidValue(
              { message: `You need to be ${MIN_AGE} or older.`, formCode: "DATE_OF_BIRTH_IS_UNDERAGE" },
              iso
            )
      })
    ),
    encode: SchemaGetter.passthrough()
  })
)

/**
 * An e-mail address: one `@`, something on both sides, a dot in the domain, no inner spaces; ≤ 254.
 * Surrounding spaces are forgiven (the flows trim and normalise it).
 *
 * The pattern runs in linear time: the domain is read up to its first dot after the first
 * character, so no two repeats compete for the same characters (`[^\s@]+\.[^\s@]+` did, and 80 KB
 * of dots blocked the event loop for 15 s). It accepts exactly what that pattern accepted. The
 * length check aborts, so the pattern never sees more than 254 characters.
 */
export const EmailAddress = Schema.String.pipe(
  Schema.check(
    Fields.maxLength(254),
    Schema.isPattern(/^\s*[^\s@]+@[^\s@][^\s@.]*\.[^\s@]+\s*$/, {
      message: "Not a well formed email address.",
      formCode: "EMAIL_TYPE_INVALID_EMAIL"
    })
  )
)

const NewPassword = Schema.String.pipe(Schema.check(length(8, 128)))

export const RegisterVerifyBody = Schema.Struct({
  verification_id: Snowflake.Snowflake,
  // 6 digits of the service's code, or 4 of a carrier check (GET /auth/verify tells which).
  code: Schema.String.pipe(
    Schema.check(
      Schema.isPattern(/^(\d{4}|\d{6})$/, {
        message: "Must be 6 digits (4 for a call).",
        formCode: "BASE_TYPE_INVALID"
      })
    )
  ),
  username: Username,
  display_name: Schema.optionalKey(Schema.NullOr(Schema.String.pipe(Schema.check(Fields.maxLength(32))))),
  password: NewPassword,
  date_of_birth: DateOfBirth,
  // A boolean that must be true, not Literal(true): HttpApi wraps payloads in a union where a
  // literal field acts as a discriminator, and `false` would then fail the whole body, not the field.
  consent: Schema.Boolean.pipe(
    Schema.check(
      Schema.makeFilter((given: boolean) => given, {
        message: "You must agree to the terms.",
        formCode: "CONSENT_REQUIRED"
      })
    )
  ),
  email: Schema.optionalKey(EmailAddress)
})

export const AuthMethods = Schema.Struct({
  phone: Schema.Boolean,
  email: Schema.Boolean,
  /** `RU` or empty: the only distinction the API makes. */
  country: Schema.String
})

const CaptchaToken = Schema.optionalKey(Schema.String.pipe(Schema.check(Fields.maxLength(4096))))

export const RegisterEmailBody = Schema.Struct({ email: EmailAddress, captcha_token: CaptchaToken })

export const RegisterEmailAnswer = Schema.Struct({
  verification_id: Snowflake.Snowflake,
  expires_in: Schema.Int,
  /** masked */
  email: Schema.String,
  channel: Schema.Literal("email"),
  code_length: Schema.Int
})

export const RecoverPhoneBody = RegisterPhoneBody

const SixDigits = Schema.String.pipe(
  Schema.check(Schema.isPattern(/^\d{6}$/, { message: "Must be 6 digits.", formCode: "BASE_TYPE_INVALID" }))
)

/** An app code (6 digits) or a backup code (`xxxxxxxx-xxxx`); the domain tells them apart. */
export const MfaCode = Schema.String.pipe(Schema.check(length(1, 32)))

export const RecoverVerifyBody = Schema.Struct({
  verification_id: Snowflake.Snowflake,
  code: SixDigits,
  new_password: NewPassword,
  /** The second factor when the account has TOTP on (`code` is the SMS code here). */
  mfa_code: Schema.optionalKey(MfaCode)
})

const LinkToken = Schema.String.pipe(Schema.check(length(1, 512)))

export const EmailVerifyBody = Schema.Struct({ token: LinkToken })
export const RecoverEmailBody = Schema.Struct({ email: EmailAddress, captcha_token: CaptchaToken })
export const RecoverEmailVerifyBody = Schema.Struct({
  token: LinkToken,
  new_password: NewPassword,
  /** The second factor when the account has TOTP on, as at login. */
  code: Schema.optionalKey(MfaCode)
})

export const CheckState = Schema.Struct({
  status: Schema.Literals(["pending", "needs_code", "ok", "failed"]),
  code_length: Schema.Int,
  channel: Schema.Literals(["sms", "messenger", "console", "mobileid", "email"])
})

const checkParams = { verification_id: Snowflake.Snowflake }
const checkQuery = {
  purpose: Schema.optionalKey(Schema.Literals(["register", "recover", "change_phone"]))
}

const LoginField = Schema.String.pipe(Schema.check(length(1, 320)))

/** `login` holds a phone or an e-mail, as on the mirrored platform; `phone` and `email` are accepted too. */
export const LoginBody = Schema.Struct({
  login: Schema.optionalKey(LoginField),
  phone: Schema.optionalKey(LoginField),
  email: Schema.optionalKey(LoginField),
  // The password is checked exactly as typed; the hasher caps its size.
  password: Schema.String.pipe(Schema.check(length(1, 1024))),
  code: Schema.optionalKey(Schema.String),
  captcha_token: Schema.optionalKey(Schema.String.pipe(Schema.check(Fields.maxLength(4096))))
})

export const RefreshBody = Schema.Struct({
  refresh_token: Schema.String.pipe(Schema.check(Schema.isMinLength(1), Fields.maxLength(512)))
})

export class AuthPublicApi extends HttpApiGroup.make("authPublic")
  .add(
    // per caller (by their address): no cache may keep it for someone else
    HttpApiEndpoint.get("methods", "/auth/methods", { success: AuthMethods }).middleware(NoStore),
    HttpApiEndpoint.post("registerEmail", "/auth/register/email", {
      payload: RegisterEmailBody,
      success: RegisterEmailAnswer,
      error: [InvalidFormBody, Forbidden, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.post("recoverPhone", "/auth/recover/phone", {
      payload: RecoverPhoneBody,
      success: RegisterPhoneAnswer,
      error: [InvalidFormBody, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.post("recoverVerify", "/auth/recover/verify", {
      payload: RecoverVerifyBody,
      success: TokenPair,
      error: [
        InvalidFormBody,
        PhoneCodeInvalid,
        Banned,
        TwoFactorRequired,
        InvalidTwoFactorCode,
        RateLimited,
        ServiceUnavailable
      ]
    }).middleware(NoStore),
    HttpApiEndpoint.post("emailVerify", "/auth/email/verify", {
      payload: EmailVerifyBody,
      success: Schema.Struct({ email: Schema.String }),
      error: [InvalidFormBody, EmailLinkInvalid]
    }),
    HttpApiEndpoint.post("recoverEmail", "/auth/recover/email", {
      payload: RecoverEmailBody,
      success: Schema.Struct({ ok: Schema.Boolean }),
      error: [InvalidFormBody, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.post("recoverEmailVerify", "/auth/recover/email/verify", {
      payload: RecoverEmailVerifyBody,
      success: TokenPair,
      error: [
        InvalidFormBody,
        EmailLinkInvalid,
        Banned,
        TwoFactorRequired,
        InvalidTwoFactorCode,
        RateLimited,
        ServiceUnavailable
      ]
    }).middleware(NoStore)
  )
  .add(
    HttpApiEndpoint.post("registerPhone", "/auth/register/phone", {
      payload: RegisterPhoneBody,
      success: RegisterPhoneAnswer,
      error: [InvalidFormBody, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.post("registerVerify", "/auth/register/verify", {
      payload: RegisterVerifyBody,
      success: TokenPair.pipe(HttpApiSchema.status(201)),
      error: [InvalidFormBody, PhoneCodeInvalid]
    }).middleware(NoStore),
    HttpApiEndpoint.post("login", "/auth/login", {
      payload: LoginBody,
      success: TokenPair,
      error: [
        InvalidAuthenticationToken,
        TwoFactorRequired,
        InvalidTwoFactorCode,
        Banned,
        InvalidFormBody,
        RateLimited,
        ServiceUnavailable
      ]
    }).middleware(NoStore),
    HttpApiEndpoint.get("verificationState", "/auth/verify/:verification_id", {
      params: checkParams,
      query: checkQuery,
      success: CheckState,
      error: PhoneCodeInvalid
    }),
    HttpApiEndpoint.post("verificationSms", "/auth/verify/:verification_id/sms", {
      params: checkParams,
      query: checkQuery,
      success: CheckState,
      error: [PhoneCodeInvalid, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.post("refresh", "/auth/refresh", {
      payload: RefreshBody,
      success: TokenPair,
      error: [InvalidAuthenticationToken, Banned]
    }).middleware(NoStore)
  )
  .annotate(
    OpenApi.Description,
    "Registration, login, token refresh and recovery: how a client gets its credentials."
  ) {}
