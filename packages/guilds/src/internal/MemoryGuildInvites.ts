/**
 * The in-memory GuildsRepo's bans and invites: a ban replaces any earlier one and ends the
 * membership in the same step; invites are capped per guild (dead ones purged), and `accept` joins
 * through a live invite with `join`'s checks, counting a use.
 */
import { DateTime, Effect, Option } from "effect"
import { type Ban, type Invite, MAX_INVITES, type Member } from "../Guild.ts"
import {
  type BannedFromGuild,
  type GuildLimitReached,
  InviteLimitReached,
  InviteNotFound,
  NoSuchChannel,
  type NoSuchGuild
} from "../GuildsErrors.ts"
import type { BansAndInvitesPart } from "../GuildsRepo.ts"
import { byUser, findMember, isLive, noGuild, paged, refusal, type Store, withoutMember } from "./MemoryGuildsState.ts"

interface Accepted {
  readonly invite: Invite
  readonly member: Member
  readonly joined: boolean
}

export const make = ({ read, step }: Store): BansAndInvitesPart => ({
  // --- bans
  ban: (ban: Ban) =>
    step((s) => {
      if (!s.guilds.has(ban.guildId)) return [noGuild, s]
      const [departure, left] = withoutMember(s, ban.guildId, ban.userId)
      const same = (b: Ban) => b.guildId === ban.guildId && b.userId === ban.userId
      return [
        Effect.succeed(Option.fromNullishOr(departure)),
        { ...left, bans: [...left.bans.filter((b) => !same(b)), ban] }
      ]
    }),
  unban: (guildId, userId) =>
    step((s) => {
      const same = (b: Ban) => b.guildId === guildId && b.userId === userId
      if (!s.bans.some(same)) return [Effect.succeed(false), s]
      return [Effect.succeed(true), { ...s, bans: s.bans.filter((b) => !same(b)) }]
    }),
  findBan: (guildId, userId) =>
    read((s) => Option.fromNullishOr(s.bans.find((b) => b.guildId === guildId && b.userId === userId))),
  bans: (guildId, page) =>
    read((s) => paged(byUser(s.bans.filter((b) => b.guildId === guildId)), (b) => b.userId, page)),

  // --- invites
  createInvite: (invite: Invite, now) =>
    step<void, InviteLimitReached | NoSuchGuild | NoSuchChannel>((s) => {
      if (!s.guilds.has(invite.guildId)) return [noGuild, s]
      if (!s.channels.some((c) => c.id === invite.channelId && c.guildId === invite.guildId)) {
        return [Effect.fail(new NoSuchChannel()), s]
      }
      // The guild's dead invites can never be used again: purge them here.
      const kept = s.invites.filter((i) => i.guildId !== invite.guildId || isLive(i, now))
      if (kept.filter((i) => i.guildId === invite.guildId).length >= MAX_INVITES) {
        return [Effect.fail(new InviteLimitReached()), s]
      }
      return [Effect.void, { ...s, invites: [...kept, invite] }]
    }),
  invite: (code, now) =>
    read((s) => Option.filter(Option.fromNullishOr(s.invites.find((i) => i.code === code)), (i) => isLive(i, now))),
  invitesOf: (guildId, now) =>
    read((s) =>
      s.invites
        .filter((i) => i.guildId === guildId && isLive(i, now))
        .sort(
          (a, b) =>
            DateTime.toEpochMillis(a.createdAt) - DateTime.toEpochMillis(b.createdAt) ||
            (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
        )
    ),
  deleteInvite: (code) =>
    step((s) => {
      const invite = s.invites.find((i) => i.code === code)
      if (invite === undefined) return [Effect.succeedNone, s]
      return [Effect.succeedSome(invite), { ...s, invites: s.invites.filter((i) => i.code !== code) }]
    }),
  accept: (code, userId, now, cap) =>
    step<Accepted, InviteNotFound | GuildLimitReached | BannedFromGuild>((s) => {
      const invite = s.invites.find((i) => i.code === code)
      if (invite === undefined || !isLive(invite, now)) return [Effect.fail(new InviteNotFound()), s]
      const existing = findMember(s, invite.guildId, userId)
      if (existing !== undefined) return [Effect.succeed({ invite, member: existing, joined: false }), s]
      const refused = refusal(s, invite.guildId, userId, cap)
      if (refused !== undefined) return [Effect.fail(refused), s]
      const member: Member = { guildId: invite.guildId, userId, nick: null, roleIds: [], joinedAt: now }
      const used: Invite = { ...invite, uses: invite.uses + 1 }
      const usedUp = used.maxUses !== 0 && used.uses >= used.maxUses
      return [
        Effect.succeed({ invite: used, member, joined: true }),
        {
          ...s,
          members: [...s.members, member],
          invites: usedUp
            ? s.invites.filter((i) => i.code !== code)
            : s.invites.map((i) => (i.code === code ? used : i))
        }
      ]
    })
})
