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
import * as RefusalTable from "./RefusalTable.ts"

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

/** The API error a refusal becomes; other errors stay as they are. */
export type ApiErrorOf<E> = RefusalTable.ApiErrorOf<E, typeof table>

export const refuse: <E>(error: E) => ApiErrorOf<E> = RefusalTable.refuseWith(table)
