/**
 * The Users group: the caller's own account (CurrentUser, profile, settings, phone and e-mail
 * changes) and other users as the public sees them. Shapes follow the mirrored platform's user
 * object. Pure data.
 */
import * as Phone from "@veche/auth/Phone"
import {
  BotsCannotUseThisEndpoint,
  Conflict,
  InvalidFormBody,
  NotImplemented,
  PhoneCodeInvalid,
  RateLimited,
  ServiceUnavailable,
  UnknownUser
} from "@veche/errors"
import * as Snowflake from "@veche/platform/Snowflake"
import * as PublicUserShape from "@veche/users/PublicUser"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AdmitsOAuthTokens, Authorization, ReadsCurrentUser } from "./Authorization.ts"
import { EmailAddress, RegisterPhoneAnswer } from "./AuthPublicApi.ts"
import * as Fields from "./Fields.ts"

/** What everybody sees of a user. */
export const PublicUser = PublicUserShape.PublicUser

/** The caller's own user: the public fields and what only its owner sees. */
export const CurrentUser = Schema.Struct({
  ...PublicUser.fields,
  bio: Schema.String,
  flags: Schema.Int,
  premium_type: Schema.Int,
  mfa_enabled: Schema.Boolean,
  locale: Schema.String,
  /** The e-mail address is confirmed. */
  verified: Schema.Boolean,
  email: Schema.NullOr(Schema.String),
  /** Present while an address waits for its confirmation link to be followed. */
  email_pending: Schema.optionalKey(Schema.String),
  /** Always masked. */
  phone: Schema.NullOr(Schema.String),
  guild_order: Schema.Array(Snowflake.Snowflake)
})

const length = Fields.maxLength

/** A data URI of an image, or null to remove it (the size limits are checked on the bytes). */
const ImageField = Schema.optionalKey(Schema.NullOr(Schema.String.pipe(Schema.check(Fields.maxLength(8_000_000)))))

export const ProfilePatch = Schema.Struct({
  /** Empty resets to the username. */
  display_name: Schema.optionalKey(Schema.NullOr(Schema.String.pipe(Schema.check(length(32))))),
  /** Empty removes it. */
  bio: Schema.optionalKey(Schema.NullOr(Schema.String.pipe(Schema.check(length(190))))),
  avatar: ImageField,
  banner: ImageField
})

export const UserSettings = Schema.Struct({
  status: Schema.Literals(["online", "idle", "dnd", "invisible"]),
  custom_status: Schema.NullOr(Schema.Struct({ text: Schema.String })),
  theme: Schema.String,
  locale: Schema.String
})

/** A single line: no line breaks. */
const OneLine = Schema.String.pipe(
  Schema.check(
    length(128),
    Schema.isPattern(/^[^\r\n\u2028\u2029]*$/, { message: "Must be a single line.", formCode: "BASE_TYPE_INVALID" })
  )
)

/** Only status and custom_status change; other fields are accepted and ignored (records are open). */
export const SettingsPatch = Schema.Struct({
  status: Schema.optionalKey(Schema.Literals(["online", "idle", "dnd", "invisible"])),
  custom_status: Schema.optionalKey(Schema.NullOr(Schema.Struct({ text: Schema.optionalKey(Schema.NullOr(OneLine)) })))
})

const Password = Schema.String.pipe(Schema.check(Schema.isMinLength(1), Fields.maxLength(1024)))

export const PhoneChangeBody = Schema.Struct({ password: Password, phone: Phone.PhoneNumber })

export const PhoneConfirmBody = Schema.Struct({
  verification_id: Snowflake.Snowflake,
  code: Schema.String.pipe(
    Schema.check(Schema.isPattern(/^\d{6}$/, { message: "Must be 6 digits.", formCode: "BASE_TYPE_INVALID" }))
  )
})

export const GuildOrderBody = Schema.Struct({ guilds: Fields.arrayAtMost(Snowflake.Snowflake, 200) })

/** The state of the account's deletion request (the mirrored platform has none; ours). */
export const DeletionStatus = Schema.Struct({
  status: Schema.Literals(["none", "pending", "cancelled", "completed"]),
  requested_at: Schema.NullOr(Schema.String),
  /** When the account is (or was to be) deleted. */
  delete_at: Schema.NullOr(Schema.String)
})

/** The latest data export; a ready one comes with a download link valid one hour (a path under the API). */
export const DataExportView = Schema.Struct({
  id: Schema.NullOr(Snowflake.Snowflake),
  status: Schema.Literals(["none", "preparing", "ready", "failed", "expired"]),
  requested_at: Schema.NullOr(Schema.String),
  ready_at: Schema.NullOr(Schema.String),
  /** When the archive is deleted. */
  expires_at: Schema.NullOr(Schema.String),
  size: Schema.NullOr(Schema.Int),
  url: Schema.NullOr(Schema.String),
  url_expires_at: Schema.NullOr(Schema.String)
})

/** The mirrored platform's relationship object (1 friend, 2 blocked, 3 incoming, 4 outgoing). */
export const RelationshipView = Schema.Struct({
  id: Snowflake.Snowflake,
  type: Schema.Literals([1, 2, 3, 4]),
  nickname: Schema.NullOr(Schema.String),
  since: Schema.String,
  user: PublicUser
})

export const EmailAddBody = Schema.Struct({ password: Password, email: EmailAddress })
export const PasswordBody = Schema.Struct({ password: Password })

const me = "/users/@me"
const usersOnly = [BotsCannotUseThisEndpoint] as const

export class UsersApi extends HttpApiGroup.make("users")
  .add(
    HttpApiEndpoint.get("me", me, { success: CurrentUser, error: UnknownUser })
      .annotate(AdmitsOAuthTokens, "identify")
      .annotate(ReadsCurrentUser, true),
    HttpApiEndpoint.patch("updateMe", me, {
      payload: ProfilePatch,
      success: CurrentUser,
      error: [...usersOnly, UnknownUser, InvalidFormBody, NotImplemented, ServiceUnavailable]
    }),
    HttpApiEndpoint.patch("guildOrder", `${me}/guild-order`, {
      payload: GuildOrderBody,
      success: HttpApiSchema.NoContent,
      error: [...usersOnly, InvalidFormBody]
    }),
    HttpApiEndpoint.get("settings", `${me}/settings`, { success: UserSettings, error: usersOnly }),
    HttpApiEndpoint.patch("updateSettings", `${me}/settings`, {
      payload: SettingsPatch,
      success: UserSettings,
      error: [...usersOnly, InvalidFormBody]
    }),
    HttpApiEndpoint.post("startPhoneChange", `${me}/phone`, {
      payload: PhoneChangeBody,
      success: RegisterPhoneAnswer,
      error: [...usersOnly, InvalidFormBody, Conflict, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.put("confirmPhoneChange", `${me}/phone`, {
      payload: PhoneConfirmBody,
      success: CurrentUser,
      error: [...usersOnly, InvalidFormBody, PhoneCodeInvalid, Conflict, UnknownUser]
    }),
    HttpApiEndpoint.post("addEmail", `${me}/email`, {
      payload: EmailAddBody,
      success: CurrentUser,
      error: [...usersOnly, InvalidFormBody, RateLimited, ServiceUnavailable, UnknownUser]
    }),
    HttpApiEndpoint.delete("removeEmail", `${me}/email`, {
      payload: PasswordBody,
      success: CurrentUser,
      error: [...usersOnly, InvalidFormBody, RateLimited, ServiceUnavailable, UnknownUser]
    }),
    HttpApiEndpoint.post("resendEmail", `${me}/email/resend`, {
      success: CurrentUser,
      error: [...usersOnly, InvalidFormBody, RateLimited, ServiceUnavailable, UnknownUser]
    }),
    HttpApiEndpoint.post("requestDeletion", `${me}/delete`, {
      payload: PasswordBody,
      success: DeletionStatus,
      error: [...usersOnly, InvalidFormBody, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.delete("cancelDeletion", `${me}/delete`, {
      success: DeletionStatus,
      error: usersOnly
    }),
    HttpApiEndpoint.get("relationships", `${me}/relationships`, {
      success: Schema.Array(RelationshipView),
      error: usersOnly
    }),
    HttpApiEndpoint.get("dataExport", `${me}/export`, { success: DataExportView, error: usersOnly }),
    HttpApiEndpoint.post("requestDataExport", `${me}/export`, {
      success: DataExportView,
      error: [...usersOnly, Conflict, RateLimited, ServiceUnavailable]
    }),
    HttpApiEndpoint.get("user", "/users/:user_id", {
      params: { user_id: Snowflake.Snowflake },
      success: PublicUser,
      error: UnknownUser
    })
  )
  // Every route of the group takes credentials (an export's download link is `ExportsApi`).
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Accounts as others and their owners see them.") {}
