/**
 * The guilds domain's refusals as the API's errors, in one table. `refuse` maps each refusal to its
 * error and passes anything else through, and its type does the same, so a handler's error type is
 * exactly the errors its endpoint declares.
 */
import {
  AccountRestricted,
  Banned,
  CannotDeleteCommunityChannel,
  InvalidChannelType,
  InvalidFormBody,
  InvalidGuild,
  MaxChannelsReached,
  MaxGuildsReached,
  MaxInvitesReached,
  MaxRolesReached,
  MissingAccess,
  MissingPermissions,
  UnknownBan,
  UnknownChannel,
  UnknownGuild,
  UnknownInvite,
  UnknownMember,
  UnknownRole,
  UnknownUser,
  VerificationRequired
} from "@veche/errors"
import type { GuildsErrors } from "@veche/guilds"

const table = {
  NoSuchGuild: () => new UnknownGuild(),
  NoSuchChannel: () => new UnknownChannel(),
  NoSuchRole: () => new UnknownRole(),
  NoSuchMember: () => new UnknownMember(),
  NoSuchBan: () => new UnknownBan(),
  NoSuchUser: () => new UnknownUser(),
  NoAccess: () => new MissingAccess(),
  MissingPermission: () => new MissingPermissions(),
  OwnerCannotLeave: () => new InvalidGuild(),
  CommunityChannelRequired: () => new CannotDeleteCommunityChannel(),
  WrongChannelType: () => new InvalidChannelType(),
  VerificationRequired: () => new VerificationRequired(),
  AccountRestricted: () => new AccountRestricted(),
  GuildLimitReached: () => new MaxGuildsReached(),
  RoleLimitReached: () => new MaxRolesReached(),
  ChannelLimitReached: () => new MaxChannelsReached(),
  InviteLimitReached: () => new MaxInvitesReached(),
  BannedFromGuild: () => new Banned(),
  InviteNotFound: () => new UnknownInvite(),
  InvalidField: (refusal: GuildsErrors.InvalidField) =>
    InvalidFormBody.field(refusal.field.split("."), refusal.code, refusal.message)
} as const

type Table = typeof table

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = E extends { readonly _tag: infer Tag }
  ? Tag extends keyof Table
    ? ReturnType<Table[Tag]>
    : E
  : E

export const refuse = <E>(error: E): ApiErrorOf<E> => {
  const tag = (error as { readonly _tag?: unknown })._tag
  if (typeof tag === "string" && tag in table) {
    const make = table[tag as keyof Table] as (refusal: never) => unknown
    return make(error as never) as ApiErrorOf<E>
  }
  return error as ApiErrorOf<E>
}
