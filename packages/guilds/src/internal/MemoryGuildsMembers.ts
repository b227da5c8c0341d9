/**
 * The in-memory GuildsRepo's guilds and members: creation under the per-user guild cap, update,
 * transfer, dissolution, a user's guilds, member counts, and joining, editing and leaving.
 */
import type { Snowflake } from "@veche/platform"
import { DateTime, Effect, Option } from "effect"
import type { Guild, GuildPatch, MemberPatch } from "../Guild.ts"
import { type BannedFromGuild, GuildLimitReached, type NoSuchGuild } from "../GuildsErrors.ts"
import type { GuildSummary, GuildsAndMembersPart } from "../GuildsRepo.ts"
import {
  atCap,
  byPosition,
  byUser,
  compareIds,
  findMember,
  noGuild,
  paged,
  refusal,
  type State,
  type Store,
  updated,
  withoutMember
} from "./MemoryGuildsState.ts"

const countOf = (s: State, guildId: string) => s.members.filter((m) => m.guildId === guildId).length

export const make = ({ read, step }: Store): GuildsAndMembersPart => ({
  // --- guilds
  create: (created, cap) =>
    step((s) => {
      if (atCap(s, created.owner.userId, cap)) return [Effect.fail(new GuildLimitReached()), s]
      return [
        Effect.void,
        {
          ...s,
          guilds: new Map(s.guilds).set(created.guild.id, created.guild),
          roles: [...s.roles, created.everyone],
          channels: [...s.channels, ...created.channels],
          members: [...s.members, created.owner]
        }
      ]
    }),
  find: (guildId) => read((s) => Option.fromNullishOr(s.guilds.get(guildId))),
  update: (guildId, patch: GuildPatch) =>
    step((s) => {
      const guild = s.guilds.get(guildId)
      if (guild === undefined) return [Effect.succeedNone, s]
      const next: Guild = { ...guild, ...patch }
      return [Effect.succeedSome(next), { ...s, guilds: new Map(s.guilds).set(guildId, next) }]
    }),
  transfer: (guildId, fromOwnerId, toUserId) =>
    step((s) => {
      const guild = s.guilds.get(guildId)
      if (guild === undefined || guild.ownerId !== fromOwnerId || findMember(s, guildId, toUserId) === undefined) {
        return [Effect.succeedNone, s]
      }
      const next: Guild = { ...guild, ownerId: toUserId }
      return [Effect.succeedSome(next), { ...s, guilds: new Map(s.guilds).set(guildId, next) }]
    }),
  remove: (guildId) =>
    step((s) => {
      if (!s.guilds.has(guildId)) return [Effect.succeed(false), s]
      const guilds = new Map(s.guilds)
      guilds.delete(guildId)
      const other = <T extends { readonly guildId: string }>(item: T) => item.guildId !== guildId
      return [
        Effect.succeed(true),
        {
          guilds,
          roles: s.roles.filter(other),
          channels: s.channels.filter(other),
          members: s.members.filter(other),
          bans: s.bans.filter(other),
          invites: s.invites.filter(other)
        }
      ]
    }),
  guildsOf: (userId) =>
    read((s) =>
      s.members
        .filter((m) => m.userId === userId)
        .sort(
          (a, b) =>
            DateTime.toEpochMillis(a.joinedAt) - DateTime.toEpochMillis(b.joinedAt) || compareIds(a.guildId, b.guildId)
        )
        .map((m) => m.guildId)
    ),
  guildsPage: (userId, page) =>
    read((s) => {
      const joined = s.members.flatMap((m) => {
        const guild = m.userId === userId ? s.guilds.get(m.guildId) : undefined
        return guild === undefined ? [] : [guild]
      })
      return paged(
        joined.sort((a, b) => compareIds(a.id, b.id)),
        (guild) => guild.id,
        page
      )
    }),
  ownsGuildsWithOthers: (userId) =>
    read((s) => s.members.some((m) => m.userId !== userId && s.guilds.get(m.guildId)?.ownerId === userId)),
  memberCount: (guildId) => read((s) => countOf(s, guildId)),
  memberCounts: (guildIds) =>
    read((s) => {
      const counts = new Map<Snowflake.Snowflake, number>()
      for (const guildId of guildIds) if (s.guilds.has(guildId)) counts.set(guildId, countOf(s, guildId))
      return counts
    }),
  summaries: (guildIds) =>
    read((s) => {
      const found = new Map<Snowflake.Snowflake, GuildSummary>()
      for (const guildId of guildIds) {
        const guild = s.guilds.get(guildId)
        if (guild !== undefined) found.set(guildId, { name: guild.name, members: countOf(s, guildId) })
      }
      return found
    }),

  memberSnapshot: (guildId, userId) =>
    read((s) => {
      const guild = s.guilds.get(guildId)
      const member = findMember(s, guildId, userId)
      if (guild === undefined || member === undefined) return Option.none()
      return Option.some({
        guild,
        member,
        roles: byPosition(s.roles.filter((role) => role.guildId === guildId)),
        channels: byPosition(s.channels.filter((channel) => channel.guildId === guildId)),
        memberCount: countOf(s, guildId)
      })
    }),

  // --- members
  member: (guildId, userId) => read((s) => Option.fromNullishOr(findMember(s, guildId, userId))),
  members: (guildId, page) =>
    read((s) =>
      paged(byUser(s.members.filter((m) => m.guildId === guildId)), (m) => m.userId, {
        after: page.after,
        limit: page.limit
      })
    ),
  join: (member, cap) =>
    step<boolean, GuildLimitReached | BannedFromGuild | NoSuchGuild>((s) => {
      if (!s.guilds.has(member.guildId)) return [noGuild, s]
      if (findMember(s, member.guildId, member.userId) !== undefined) return [Effect.succeed(false), s]
      const refused = refusal(s, member.guildId, member.userId, cap)
      if (refused !== undefined) return [Effect.fail(refused), s]
      return [Effect.succeed(true), { ...s, members: [...s.members, member] }]
    }),
  updateMember: (guildId, userId, patch: MemberPatch) =>
    step((s) => {
      const [member, members] = updated(
        s.members,
        (m) => m.guildId === guildId && m.userId === userId,
        (m) => ({ ...m, ...patch })
      )
      return [Effect.succeed(member), Option.isSome(member) ? { ...s, members } : s]
    }),
  removeMember: (guildId, userId) =>
    step((s) => {
      const [departure, next] = withoutMember(s, guildId, userId)
      return [Effect.succeed(Option.fromNullishOr(departure)), next]
    })
})
