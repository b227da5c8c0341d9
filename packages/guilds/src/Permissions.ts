/**
 * Permissions as the mirrored platform defines them: a bit set (a bigint here, a decimal string on
 * the wire), computed for a member from the @everyone role, the member's roles and the channel's
 * overwrites, in the platform's documented order. The guild's owner and Administrator have every
 * permission and ignore overwrites.
 */

/** The flags, at the platform's bit positions (bot libraries send and read these numbers). */
export const Flags = {
  CreateInstantInvite: 1n << 0n,
  KickMembers: 1n << 1n,
  BanMembers: 1n << 2n,
  Administrator: 1n << 3n,
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  AddReactions: 1n << 6n,
  ViewAuditLog: 1n << 7n,
  PrioritySpeaker: 1n << 8n,
  Stream: 1n << 9n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  SendTTSMessages: 1n << 12n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  AttachFiles: 1n << 15n,
  ReadMessageHistory: 1n << 16n,
  MentionEveryone: 1n << 17n,
  UseExternalEmojis: 1n << 18n,
  ViewGuildInsights: 1n << 19n,
  Connect: 1n << 20n,
  Speak: 1n << 21n,
  MuteMembers: 1n << 22n,
  DeafenMembers: 1n << 23n,
  MoveMembers: 1n << 24n,
  UseVAD: 1n << 25n,
  ChangeNickname: 1n << 26n,
  ManageNicknames: 1n << 27n,
  ManageRoles: 1n << 28n,
  ManageWebhooks: 1n << 29n,
  ManageGuildExpressions: 1n << 30n,
  UseApplicationCommands: 1n << 31n,
  RequestToSpeak: 1n << 32n,
  ManageEvents: 1n << 33n,
  ManageThreads: 1n << 34n,
  CreatePublicThreads: 1n << 35n,
  CreatePrivateThreads: 1n << 36n,
  UseExternalStickers: 1n << 37n,
  SendMessagesInThreads: 1n << 38n,
  UseEmbeddedActivities: 1n << 39n,
  ModerateMembers: 1n << 40n,
  ViewCreatorMonetizationAnalytics: 1n << 41n,
  UseSoundboard: 1n << 42n,
  CreateGuildExpressions: 1n << 43n,
  CreateEvents: 1n << 44n,
  UseExternalSounds: 1n << 45n,
  SendVoiceMessages: 1n << 46n,
  SendPolls: 1n << 49n,
  UseExternalApps: 1n << 50n
} as const

export type Flag = keyof typeof Flags

export const ALL: bigint = Object.values(Flags).reduce((all, bit) => all | bit, 0n)
export const NONE = 0n

/** What @everyone may do in a new guild: talk, read, react, join voice, invite — nothing that manages. */
export const DEFAULT_EVERYONE: bigint = [
  Flags.CreateInstantInvite,
  Flags.AddReactions,
  Flags.Stream,
  Flags.ViewChannel,
  Flags.SendMessages,
  Flags.EmbedLinks,
  Flags.AttachFiles,
  Flags.ReadMessageHistory,
  Flags.MentionEveryone,
  Flags.UseExternalEmojis,
  Flags.Connect,
  Flags.Speak,
  Flags.UseVAD,
  Flags.ChangeNickname,
  Flags.UseApplicationCommands,
  Flags.RequestToSpeak,
  Flags.CreatePublicThreads,
  Flags.CreatePrivateThreads,
  Flags.UseExternalStickers,
  Flags.SendMessagesInThreads,
  Flags.UseEmbeddedActivities,
  Flags.UseSoundboard,
  Flags.UseExternalSounds,
  Flags.SendVoiceMessages,
  Flags.SendPolls,
  Flags.UseExternalApps
].reduce((all, bit) => all | bit, 0n)

export const has = (permissions: bigint, flag: bigint): boolean => (permissions & flag) === flag

/** The wire form: a decimal string (a 64-bit set does not fit a JSON number). */
export const toWire = (permissions: bigint): string => permissions.toString()

/** A wire value back, or none when it is not a decimal within 64 bits; unknown bits are dropped. */
export const fromWire = (text: string): bigint | undefined => {
  if (!/^\d{1,20}$/.test(text)) return undefined
  const value = BigInt(text)
  return value >= 1n << 64n ? undefined : value & ALL
}

export interface Role {
  readonly id: string
  readonly permissions: bigint
}

export interface Overwrite {
  /** A role id (the guild's id for @everyone) or a member's user id. */
  readonly id: string
  /** 0 role, 1 member, as on the wire. */
  readonly type: 0 | 1
  readonly allow: bigint
  readonly deny: bigint
}

export interface MemberContext {
  readonly guildId: string
  readonly ownerId: string
  readonly userId: string
  /** The @everyone role (its id is the guild's id). */
  readonly everyone: Role
  /** The member's other roles. */
  readonly roles: ReadonlyArray<Role>
}

/** The guild-wide permissions of a member. */
export const base = (member: MemberContext): bigint => {
  if (member.userId === member.ownerId) return ALL
  const permissions = member.roles.reduce((all, role) => all | role.permissions, member.everyone.permissions)
  return has(permissions, Flags.Administrator) ? ALL : permissions
}

/** A member's permissions in a channel: the base, then @everyone, role and member overwrites. */
export const inChannel = (member: MemberContext, overwrites: ReadonlyArray<Overwrite>): bigint => {
  const guildWide = base(member)
  if (has(guildWide, Flags.Administrator)) return ALL
  let permissions = guildWide
  const everyone = overwrites.find((o) => o.type === 0 && o.id === member.guildId)
  if (everyone !== undefined) permissions = (permissions & ~everyone.deny) | everyone.allow
  const roleIds = new Set(member.roles.map((role) => role.id))
  let allow = 0n
  let deny = 0n
  for (const overwrite of overwrites) {
    if (overwrite.type === 0 && roleIds.has(overwrite.id)) {
      allow |= overwrite.allow
      deny |= overwrite.deny
    }
  }
  permissions = (permissions & ~deny) | allow
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId)
  if (own !== undefined) permissions = (permissions & ~own.deny) | own.allow
  // A channel one cannot see grants nothing in it.
  return has(permissions, Flags.ViewChannel) ? permissions : NONE
}
