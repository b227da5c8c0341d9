/**
 * The in-memory GuildsRepo's channels: listed by position, found by id, added under the per-guild
 * cap, edited, and deleted with their invites and whatever pointed at them (children, guild fields).
 */
import type { Snowflake } from "@veche/platform"
import { Effect, Option } from "effect"
import { type ChannelPatch, MAX_CHANNELS } from "../Guild.ts"
import { ChannelLimitReached, type NoSuchGuild } from "../GuildsErrors.ts"
import type { ChannelsPart } from "../GuildsRepo.ts"
import { byPosition, findMember, noGuild, type Store, updated } from "./MemoryGuildsState.ts"

export const make = ({ read, step }: Store): ChannelsPart => ({
  channels: (guildId) => read((s) => byPosition(s.channels.filter((channel) => channel.guildId === guildId))),
  channel: (channelId) => read((s) => Option.fromNullishOr(s.channels.find((c) => c.id === channelId))),
  channelPlace: (channelId, userId) =>
    read((s) => {
      const channel = s.channels.find((c) => c.id === channelId)
      const guild = channel === undefined ? undefined : s.guilds.get(channel.guildId)
      if (channel === undefined || guild === undefined) return Option.none()
      return Option.some({
        channel,
        guild,
        roles: byPosition(s.roles.filter((role) => role.guildId === guild.id)),
        member: Option.fromNullishOr(findMember(s, guild.id, userId))
      })
    }),
  createChannel: (channel) =>
    step<void, ChannelLimitReached | NoSuchGuild>((s) => {
      if (!s.guilds.has(channel.guildId)) return [noGuild, s]
      if (s.channels.filter((c) => c.guildId === channel.guildId).length >= MAX_CHANNELS) {
        return [Effect.fail(new ChannelLimitReached()), s]
      }
      return [Effect.void, { ...s, channels: [...s.channels, channel] }]
    }),
  updateChannel: (channelId, patch: ChannelPatch) =>
    step((s) => {
      const [channel, channels] = updated(
        s.channels,
        (c) => c.id === channelId,
        (c) => ({ ...c, ...patch })
      )
      return [Effect.succeed(channel), Option.isSome(channel) ? { ...s, channels } : s]
    }),
  deleteChannel: (channelId) =>
    step((s) => {
      const channel = s.channels.find((c) => c.id === channelId)
      if (channel === undefined) return [Effect.succeedNone, s]
      const guilds = new Map(s.guilds)
      const guild = guilds.get(channel.guildId)
      if (guild !== undefined) {
        const unset = (id: Snowflake.Snowflake | null) => (id === channelId ? null : id)
        guilds.set(guild.id, {
          ...guild,
          systemChannelId: unset(guild.systemChannelId),
          rulesChannelId: unset(guild.rulesChannelId),
          publicUpdatesChannelId: unset(guild.publicUpdatesChannelId),
          afkChannelId: unset(guild.afkChannelId)
        })
      }
      return [
        Effect.succeedSome(channel),
        {
          ...s,
          guilds,
          channels: s.channels
            .filter((c) => c.id !== channelId)
            .map((c) => (c.parentId === channelId ? { ...c, parentId: null } : c)),
          invites: s.invites.filter((invite) => invite.channelId !== channelId)
        }
      ]
    })
})
