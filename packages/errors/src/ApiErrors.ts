/**
 * One error class per catalogue entry, named like the entry (and its `_tag`). Handlers fail with
 * them (`yield* new UnknownGuild()`); HttpApi encodes them to the exact wire body at the entry's
 * status. Code, status and default message come from `ErrorCatalogue` through `ApiError`.
 */
import { Schema, type SchemaIssue } from "effect"
import * as ApiError from "./ApiError.ts"
import * as ErrorCatalogue from "./ErrorCatalogue.ts"
import * as FormErrors from "./FormErrors.ts"

// 10xxx: unknown resources
export class UnknownApplication extends ApiError.make<UnknownApplication>()("UnknownApplication") {}
export class UnknownChannel extends ApiError.make<UnknownChannel>()("UnknownChannel") {}
export class UnknownGuild extends ApiError.make<UnknownGuild>()("UnknownGuild") {}
export class UnknownInvite extends ApiError.make<UnknownInvite>()("UnknownInvite") {}
export class UnknownMember extends ApiError.make<UnknownMember>()("UnknownMember") {}
export class UnknownMessage extends ApiError.make<UnknownMessage>()("UnknownMessage") {}
export class UnknownRole extends ApiError.make<UnknownRole>()("UnknownRole") {}
export class UnknownUser extends ApiError.make<UnknownUser>()("UnknownUser") {}
export class UnknownEmoji extends ApiError.make<UnknownEmoji>()("UnknownEmoji") {}
export class UnknownWebhook extends ApiError.make<UnknownWebhook>()("UnknownWebhook") {}
export class UnknownBan extends ApiError.make<UnknownBan>()("UnknownBan") {}
export class UnknownSticker extends ApiError.make<UnknownSticker>()("UnknownSticker") {}

// 20xxx: who may call what
export class BotsCannotUseThisEndpoint extends ApiError.make<BotsCannotUseThisEndpoint>()(
  "BotsCannotUseThisEndpoint"
) {}
export class OnlyBotsCanUseThisEndpoint extends ApiError.make<OnlyBotsCanUseThisEndpoint>()(
  "OnlyBotsCanUseThisEndpoint"
) {}
/** 20016 at 429: the channel's rate_limit_per_user (unlike `RateLimited`, this body has a code). */
export class SlowmodeRateLimit extends ApiError.make<SlowmodeRateLimit>()("SlowmodeRateLimit") {}
export class AgeRestrictedChannel extends ApiError.make<AgeRestrictedChannel>()("AgeRestrictedChannel") {}
export class AccountRestricted extends ApiError.make<AccountRestricted>()("AccountRestricted") {}

// 30xxx: counted limits
export class MaxGuildsReached extends ApiError.make<MaxGuildsReached>()("MaxGuildsReached") {}
export class MaxFriendsReached extends ApiError.make<MaxFriendsReached>()("MaxFriendsReached") {}
export class MaxPinsReached extends ApiError.make<MaxPinsReached>()("MaxPinsReached") {}
export class MaxRolesReached extends ApiError.make<MaxRolesReached>()("MaxRolesReached") {}
export class MaxWebhooksReached extends ApiError.make<MaxWebhooksReached>()("MaxWebhooksReached") {}
export class MaxEmojisReached extends ApiError.make<MaxEmojisReached>()("MaxEmojisReached") {}
export class MaxReactionsReached extends ApiError.make<MaxReactionsReached>()("MaxReactionsReached") {}
export class MaxChannelsReached extends ApiError.make<MaxChannelsReached>()("MaxChannelsReached") {}
export class MaxInvitesReached extends ApiError.make<MaxInvitesReached>()("MaxInvitesReached") {}
export class MaxApplicationsReached extends ApiError.make<MaxApplicationsReached>()("MaxApplicationsReached") {}
export class MaxStickersReached extends ApiError.make<MaxStickersReached>()("MaxStickersReached") {}

// 40xxx: account and request state
/** 40001: token missing or expired. */
export class Unauthorized extends ApiError.make<Unauthorized>()("Unauthorized") {}
export class VerificationRequired extends ApiError.make<VerificationRequired>()("VerificationRequired") {}
export class RequestEntityTooLarge extends ApiError.make<RequestEntityTooLarge>()("RequestEntityTooLarge") {}
export class FeatureDisabled extends ApiError.make<FeatureDisabled>()("FeatureDisabled") {}
/** 40007: server ban; for a platform-wide block pass a `message` that states reason and term. */
export class Banned extends ApiError.make<Banned>()("Banned") {}
/** 40032 at 400: moderation action (mute, move) on a user who is not in voice. */
export class TargetNotInVoice extends ApiError.make<TargetNotInVoice>()("TargetNotInVoice") {}
/** 40032 at 404: reading a voice state that does not exist (GET /users/@me/voice). */
export class VoiceStateNotFound extends ApiError.make<VoiceStateNotFound>()("VoiceStateNotFound") {}

// 50xxx: access and validation
export class MissingAccess extends ApiError.make<MissingAccess>()("MissingAccess") {}
export class InvalidAccountType extends ApiError.make<InvalidAccountType>()("InvalidAccountType") {}
export class CannotExecuteOnDmChannel extends ApiError.make<CannotExecuteOnDmChannel>()("CannotExecuteOnDmChannel") {}
export class CannotEditOthersMessage extends ApiError.make<CannotEditOthersMessage>()("CannotEditOthersMessage") {}
export class CannotSendEmptyMessage extends ApiError.make<CannotSendEmptyMessage>()("CannotSendEmptyMessage") {}
export class CannotSendMessagesToUser extends ApiError.make<CannotSendMessagesToUser>()("CannotSendMessagesToUser") {}
export class MissingPermissions extends ApiError.make<MissingPermissions>()("MissingPermissions") {}
export class InvalidAuthenticationToken extends ApiError.make<InvalidAuthenticationToken>()(
  "InvalidAuthenticationToken"
) {}
export class InvalidChannelType extends ApiError.make<InvalidChannelType>()("InvalidChannelType") {}
export class InvalidWebhookToken extends ApiError.make<InvalidWebhookToken>()("InvalidWebhookToken") {}
export class InvalidRecipients extends ApiError.make<InvalidRecipients>()("InvalidRecipients") {}
/**
 * 50035: the body failed validation; `errors` holds the per-field tree (see `FormErrors`).
 * `InvalidFormBody.fromSchemaError(err)` builds it from a failed decode.
 */
export class InvalidFormBody extends ApiError.makeWith<InvalidFormBody>()("InvalidFormBody", {
  errors: FormErrors.Tree
}) {
  static fromIssue(issue: SchemaIssue.Issue): InvalidFormBody {
    return new InvalidFormBody({ errors: FormErrors.fromIssue(issue) })
  }

  static fromSchemaError(error: Schema.SchemaError): InvalidFormBody {
    return InvalidFormBody.fromIssue(error.issue)
  }

  /** One field error, for rules a domain checks itself (a taken username, a wrong password). */
  static field(path: ReadonlyArray<PropertyKey>, code: string, message: string): InvalidFormBody {
    return new InvalidFormBody({ errors: FormErrors.field(path, code, message) })
  }
}
export class InvalidGuild extends ApiError.make<InvalidGuild>()("InvalidGuild") {}
export class CannotDeleteCommunityChannel extends ApiError.make<CannotDeleteCommunityChannel>()(
  "CannotDeleteCommunityChannel"
) {}
export class ThreadArchived extends ApiError.make<ThreadArchived>()("ThreadArchived") {}
/** 50109: the body is not JSON at all (a decodable body that breaks rules is 50035 instead). */
export class InvalidJson extends ApiError.make<InvalidJson>()("InvalidJson") {}

// 60xxx: two-factor authentication
export class TwoFactorAlreadyEnabled extends ApiError.make<TwoFactorAlreadyEnabled>()("TwoFactorAlreadyEnabled") {}
export class TwoFactorNotEnabled extends ApiError.make<TwoFactorNotEnabled>()("TwoFactorNotEnabled") {}
/** 60003 at login (401): the body carries `mfa: true`, which tells clients to ask for a code. */
export class TwoFactorRequired extends ApiError.makeWith<TwoFactorRequired>()("TwoFactorRequired", {
  mfa: Schema.tag(ErrorCatalogue.entries.TwoFactorRequired.mfa),
  ...ApiError.optionalErrors
}) {}
/** 60003 at 403: the operation needs 2FA enabled on the account (e.g. creating an application). */
export class TwoFactorRequiredForOperation extends ApiError.make<TwoFactorRequiredForOperation>()(
  "TwoFactorRequiredForOperation"
) {}
export class InvalidTwoFactorCode extends ApiError.make<InvalidTwoFactorCode>()("InvalidTwoFactorCode") {}

// 70xxx: this service's own codes
export class PhoneCodeInvalid extends ApiError.make<PhoneCodeInvalid>()("PhoneCodeInvalid") {}
export class EmailLinkInvalid extends ApiError.make<EmailLinkInvalid>()("EmailLinkInvalid") {}

// 160xxx: threads
export class ThreadAlreadyCreated extends ApiError.make<ThreadAlreadyCreated>()("ThreadAlreadyCreated") {}
export class MaxActiveThreadsReached extends ApiError.make<MaxActiveThreadsReached>()("MaxActiveThreadsReached") {}

// 200000: AutoMod (message is the rule text, errors.rule_name names the rule)
/** 200000: the message is the rule's text (override `message`); `errors.rule_name` names the rule. */
export class AutoModBlocked extends ApiError.makeWith<AutoModBlocked>()("AutoModBlocked", {
  errors: Schema.Struct({ rule_name: Schema.String })
}) {}

// code 0: general answers for a bare HTTP status, and route-specific statuses without a code
export class Forbidden extends ApiError.make<Forbidden>()("Forbidden") {}
export class NotFound extends ApiError.make<NotFound>()("NotFound") {}
export class MethodNotAllowed extends ApiError.make<MethodNotAllowed>()("MethodNotAllowed") {}
export class Conflict extends ApiError.make<Conflict>()("Conflict") {}
export class UnsupportedMediaType extends ApiError.make<UnsupportedMediaType>()("UnsupportedMediaType") {}
export class InternalServerError extends ApiError.make<InternalServerError>()("InternalServerError") {}
export class NotImplemented extends ApiError.make<NotImplemented>()("NotImplemented") {}
export class BadGateway extends ApiError.make<BadGateway>()("BadGateway") {}
export class ServiceUnavailable extends ApiError.make<ServiceUnavailable>()("ServiceUnavailable") {}
