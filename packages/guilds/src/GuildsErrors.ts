/** Why a change to guilds was refused, as data (the REST layer maps each to the API's code). */
import { Schema } from "effect"

/** The user is in the maximum number of guilds already (400 30001). */
export class GuildLimitReached extends Schema.TaggedError<GuildLimitReached>()("GuildLimitReached", {}) {}
/** The guild has the maximum number of roles (400 30005). */
export class RoleLimitReached extends Schema.TaggedError<RoleLimitReached>()("RoleLimitReached", {}) {}
/** The guild has the maximum number of channels (400 30013). */
export class ChannelLimitReached extends Schema.TaggedError<ChannelLimitReached>()("ChannelLimitReached", {}) {}
/** The guild has the maximum number of live invites (400 30016). */
export class InviteLimitReached extends Schema.TaggedError<InviteLimitReached>()("InviteLimitReached", {}) {}
/** The user is banned from the guild (403 40007). */
export class BannedFromGuild extends Schema.TaggedError<BannedFromGuild>()("BannedFromGuild", {}) {}
/** No invite with this code, or it expired or is used up (404 10006). */
export class InviteNotFound extends Schema.TaggedError<InviteNotFound>()("InviteNotFound", {}) {}

/** No such guild (404 10004). */
export class NoSuchGuild extends Schema.TaggedError<NoSuchGuild>()("NoSuchGuild", {}) {}
/** No such channel in a guild the caller can reach (404 10003). */
export class NoSuchChannel extends Schema.TaggedError<NoSuchChannel>()("NoSuchChannel", {}) {}
/** No such role in the guild (404 10011). */
export class NoSuchRole extends Schema.TaggedError<NoSuchRole>()("NoSuchRole", {}) {}
/** The user is not a member of the guild (404 10007). */
export class NoSuchMember extends Schema.TaggedError<NoSuchMember>()("NoSuchMember", {}) {}
/** The user is not banned from the guild (404 10026). */
export class NoSuchBan extends Schema.TaggedError<NoSuchBan>()("NoSuchBan", {}) {}
/** The user the action is about does not exist (404 10013). */
export class NoSuchUser extends Schema.TaggedError<NoSuchUser>()("NoSuchUser", {}) {}
/** The caller is not a member, or cannot see the channel (403 50001). */
export class NoAccess extends Schema.TaggedError<NoAccess>()("NoAccess", {}) {}
/** The caller lacks a permission, or stands too low in the role hierarchy (403 50013). */
export class MissingPermission extends Schema.TaggedError<MissingPermission>()("MissingPermission", {
  /** The flag that was needed, for logs; hierarchy refusals name "hierarchy". */
  needed: Schema.String
}) {}
/** The owner tries to leave their own guild (400 50055): transfer it or delete it first. */
export class OwnerCannotLeave extends Schema.TaggedError<OwnerCannotLeave>()("OwnerCannotLeave", {}) {}
/** The rules or updates channel of a Community guild cannot be deleted (400 50074). */
export class CommunityChannelRequired extends Schema.TaggedError<CommunityChannelRequired>()(
  "CommunityChannelRequired",
  {}
) {}
/** The action does not apply to this kind of channel (400 50024). */
export class WrongChannelType extends Schema.TaggedError<WrongChannelType>()("WrongChannelType", {}) {}
/** The guild's verification level keeps this account out (403 40002). */
export class VerificationRequired extends Schema.TaggedError<VerificationRequired>()("VerificationRequired", {}) {}
/** The account is under a shadow restriction: no invitations (403 20025). */
export class AccountRestricted extends Schema.TaggedError<AccountRestricted>()("AccountRestricted", {}) {}
/** A field refers to something that cannot be used there (400 50035 on that field). */
export class InvalidField extends Schema.TaggedError<InvalidField>()("InvalidField", {
  field: Schema.String,
  code: Schema.String,
  message: Schema.String
}) {}
