/**
 * The auth group of a signed-in user: logout, the session list and two-factor authentication.
 * Every route takes credentials. Pure data. Registration, login and recovery are `AuthPublicApi`.
 */
import {
  BotsCannotUseThisEndpoint,
  InvalidFormBody,
  InvalidTwoFactorCode,
  RateLimited,
  ServiceUnavailable,
  TwoFactorAlreadyEnabled,
  TwoFactorNotEnabled
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { MfaCode } from "./AuthPublicApi.ts"
import * as Fields from "./Fields.ts"
import { NoStore } from "./NoStore.ts"

export const SessionView = Schema.Struct({
  id: Snowflake.Snowflake,
  /** The session the request was made with. */
  current: Schema.Boolean,
  created_at: Schema.String,
  last_used_at: Schema.String,
  client_info: Schema.Struct({
    user_agent: Schema.NullOr(Schema.String),
    ip: Schema.NullOr(Schema.String),
    country: Schema.NullOr(Schema.String)
  })
})

const length = Fields.betweenLength

export const MfaState = Schema.Struct({
  totp_enabled: Schema.Boolean,
  backup_codes_left: Schema.Int
})

export const BackupCodesAnswer = Schema.Struct({ backup_codes: Schema.Array(Schema.String) })

const Password = Schema.String.pipe(Schema.check(length(1, 1024)))
export const MfaCodesBody = Schema.Struct({ password: Password })

export const EnableTotpBody = Schema.Struct({
  password: Password,
  /** base32 without `=`, at least 16 characters; spaces and case are forgiven (apps group it). */
  secret: Schema.String.pipe(Schema.check(length(16, 256))),
  code: Schema.String.pipe(
    Schema.check(Schema.isPattern(/^\s*\d{6}\s*$/, { message: "Must be 6 digits.", formCode: "BASE_TYPE_INVALID" }))
  )
})

export const DisableTotpBody = Schema.Struct({ code: MfaCode })

const NoContent = HttpApiSchema.NoContent

export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("logout", "/auth/logout", { success: NoContent, error: BotsCannotUseThisEndpoint }),
    HttpApiEndpoint.get("sessions", "/auth/sessions", {
      success: Schema.Array(SessionView),
      error: BotsCannotUseThisEndpoint
    }),
    HttpApiEndpoint.delete("endOtherSessions", "/auth/sessions", {
      success: NoContent,
      error: BotsCannotUseThisEndpoint
    }),
    HttpApiEndpoint.get("mfaState", "/auth/mfa", {
      success: MfaState,
      error: BotsCannotUseThisEndpoint
    }),
    HttpApiEndpoint.post("mfaCodes", "/auth/mfa/codes", {
      payload: MfaCodesBody,
      success: BackupCodesAnswer,
      error: [BotsCannotUseThisEndpoint, InvalidFormBody, TwoFactorNotEnabled, RateLimited, ServiceUnavailable]
    }).middleware(NoStore),
    HttpApiEndpoint.post("enableTotp", "/auth/mfa/totp", {
      payload: EnableTotpBody,
      success: BackupCodesAnswer,
      error: [
        BotsCannotUseThisEndpoint,
        InvalidFormBody,
        TwoFactorAlreadyEnabled,
        InvalidTwoFactorCode,
        RateLimited,
        ServiceUnavailable
      ]
    }).middleware(NoStore),
    HttpApiEndpoint.delete("disableTotp", "/auth/mfa/totp", {
      payload: DisableTotpBody,
      success: NoContent,
      error: [BotsCannotUseThisEndpoint, TwoFactorNotEnabled, InvalidTwoFactorCode, RateLimited, ServiceUnavailable]
    })
  )
  // Every route of the group takes credentials.
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Sessions and two-factor authentication of the signed-in user.") {}
