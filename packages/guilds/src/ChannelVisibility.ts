/**
 * Which channels of a guild a member may see (View Channel after roles and overwrites), for the
 * gateway's per-channel filtering. The gateway caches the guild's rules (the guild, its roles, its
 * channels with overwrites) once per guild and each member's roles once per member, and derives
 * the visible set with `visibleChannels`: the same computation the REST routes apply
 * (GuildAccess.channelPermissionsOf), so a dispatch never reaches someone the routes would refuse.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"
import type { Channel, Guild, Member, Overwrite, Role } from "./Guild.ts"
import * as GuildAccess from "./GuildAccess.ts"
import { GuildsRepo } from "./GuildsRepo.ts"
import * as Permissions from "./Permissions.ts"

/** What decides visibility in one guild, for every member. */
export interface GuildRules {
  readonly guild: Guild
  readonly roles: ReadonlyArray<Role>
  readonly channels: ReadonlyArray<Channel>
}

export class ChannelVisibility extends Context.Service<
  ChannelVisibility,
  {
    /** None when the guild is gone. */
    readonly rules: (guildId: Snowflake.Snowflake) => Effect.Effect<Option.Option<GuildRules>>
    /** None when the user is not (or no longer) a member. */
    readonly member: (guildId: Snowflake.Snowflake, userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<Member>>
  }
>()("@veche/guilds/ChannelVisibility") {
  static readonly layer: Layer.Layer<ChannelVisibility, never, GuildsRepo> = Layer.effect(
    ChannelVisibility,
    Effect.map(Effect.service(GuildsRepo), (repo) =>
      ChannelVisibility.of({
        rules: (guildId) =>
          Effect.map(
            Effect.all([repo.find(guildId), repo.roles(guildId), repo.channels(guildId)], { concurrency: "unbounded" }),
            ([guild, roles, channels]) => Option.map(guild, (found): GuildRules => ({ guild: found, roles, channels }))
          ),
        member: (guildId, userId) => repo.member(guildId, userId)
      })
    )
  )
}

/** The ids of the channels `member` may see in the guild `rules` describe. */
export const visibleChannels = (rules: GuildRules, member: Member): ReadonlySet<string> => {
  const visible = new Set<string>()
  for (const channel of rules.channels)
    if (
      Permissions.has(
        GuildAccess.channelPermissionsOf(rules.guild, rules.roles, member, channel),
        Permissions.Flags.ViewChannel
      )
    )
      visible.add(channel.id)
  return visible
}

/**
 * Whether `member` may see a channel with these overwrites: for a channel event, whose payload
 * carries the channel as it now is (or was, when deleted), whatever the cached rules say of it.
 */
export const seesWith = (rules: GuildRules, member: Member, overwrites: ReadonlyArray<Overwrite>): boolean =>
  Permissions.has(
    GuildAccess.channelPermissionsOf(rules.guild, rules.roles, member, { overwrites }),
    Permissions.Flags.ViewChannel
  )

/** Overwrites as a channel payload carries them (permissions as decimal strings); bad entries are left out. */
export const overwritesFromWire = (wire: unknown): ReadonlyArray<Overwrite> => {
  if (!Array.isArray(wire)) return []
  return wire.flatMap((entry: unknown): Array<Overwrite> => {
    if (typeof entry !== "object" || entry === null) return []
    const { id, type, allow, deny } = entry as Readonly<Record<string, unknown>>
    if (typeof id !== "string" || (type !== 0 && type !== 1) || typeof allow !== "string" || typeof deny !== "string")
      return []
    const allowed = Permissions.fromWire(allow)
    const denied = Permissions.fromWire(deny)
    if (allowed === undefined || denied === undefined) return []
    return [{ id: id as Snowflake.Snowflake, type, allow: allowed, deny: denied }]
  })
}
