/**
 * Per-channel filtering of guild dispatches: a message, typing, pins, invite or channel event
 * reaches only the sessions whose user may see its channel (View Channel through roles and
 * overwrites, computed by the guilds domain: ChannelVisibility).
 *
 * Nothing is computed per event per socket: this node caches, per guild it has sessions in, the
 * guild's rules (guild, roles, channels with overwrites) and, per member, their roles and the set
 * of channels they see; a delivery is then one `Set.has` per recipient. The cache follows the same
 * dispatches it filters, on every node: role, channel and guild updates drop the guild's rules
 * (reloaded at the next channel event), member updates drop that member. A node that stops
 * listening on a guild forgets it, and one that may have missed dispatches forgets everything
 * (`clear`). Dispatches are delivered after their change was stored, so a reload sees it.
 */
import { ChannelVisibility } from "@veche/guilds"
import type { Dispatch, Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"

type Rules = ChannelVisibility.GuildRules
type Member = Parameters<typeof ChannelVisibility.visibleChannels>[1]

/** What a dispatch's channel is, when it concerns one channel of a guild. */
export interface Scope {
  readonly channelId: string
  /** A channel event: visibility comes from the channel in the payload (its overwrites as they now are). */
  readonly overwrites: unknown
}

const field = (value: unknown, key: string): unknown =>
  typeof value === "object" && value !== null && Object.hasOwn(value, key)
    ? (value as Readonly<Record<string, unknown>>)[key]
    : undefined

const CHANNEL_EVENTS: ReadonlySet<string> = new Set(["CHANNEL_CREATE", "CHANNEL_UPDATE", "CHANNEL_DELETE"])
const IN_CHANNEL: ReadonlySet<string> = new Set([
  "MESSAGE_CREATE",
  "MESSAGE_UPDATE",
  "MESSAGE_DELETE",
  "MESSAGE_DELETE_BULK",
  "MESSAGE_REACTION_ADD",
  "MESSAGE_REACTION_REMOVE",
  "MESSAGE_REACTION_REMOVE_ALL",
  "MESSAGE_REACTION_REMOVE_EMOJI",
  "TYPING_START",
  "CHANNEL_PINS_UPDATE",
  "INVITE_CREATE",
  "INVITE_DELETE"
])

/** The channel a guild dispatch concerns (undefined: guild-wide, everyone in the guild receives it). */
export const scopeOf = (type: string, data: unknown): Scope | undefined => {
  if (CHANNEL_EVENTS.has(type)) {
    const id = field(data, "id")
    return typeof id === "string" ? { channelId: id, overwrites: field(data, "permission_overwrites") } : undefined
  }
  if (IN_CHANNEL.has(type)) {
    const id = field(data, "channel_id")
    return typeof id === "string" ? { channelId: id, overwrites: undefined } : undefined
  }
  return undefined
}

/** What changes who sees what, by dispatch name. */
const DROPS_RULES: ReadonlySet<string> = new Set([
  "GUILD_UPDATE",
  "GUILD_ROLE_CREATE",
  "GUILD_ROLE_UPDATE",
  "GUILD_ROLE_DELETE",
  "CHANNEL_CREATE",
  "CHANNEL_UPDATE",
  "CHANNEL_DELETE"
])
const DROPS_MEMBER: ReadonlySet<string> = new Set(["GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"])

interface GuildEntry {
  /** undefined: not loaded; null: the guild is gone. */
  rules: Rules | null | undefined
  /** A member's record (null: not a member), kept across rule changes. */
  readonly members: Map<string, Member | null>
  /** The channels each member sees, derived from the two above. */
  readonly visible: Map<string, ReadonlySet<string>>
}

const NOTHING: ReadonlySet<string> = new Set()

export class ChannelViews extends Context.Service<
  ChannelViews,
  {
    /** Loads what the cache lacks to decide for these users in this guild (nothing when all are known). */
    readonly prepare: (guildId: Snowflake.Snowflake, userIds: Iterable<Snowflake.Snowflake>) => Effect.Effect<void>
    /** Whether the user sees the channel a dispatch concerns (after `prepare`). */
    readonly sees: (guildId: string, userId: string, scope: Scope) => boolean
    /** A dispatch was delivered: drop what it made stale. */
    readonly observe: (dispatch: Dispatch.Dispatch) => void
    /** This node no longer listens on the guild. */
    readonly forget: (guildId: string) => void
    /** Dispatches may have been missed: forget everything. */
    readonly clear: () => void
  }
>()("@veche/gateway/ChannelViews") {
  static readonly layer: Layer.Layer<ChannelViews, never, ChannelVisibility.ChannelVisibility> = Layer.effect(
    ChannelViews,
    Effect.gen(function* () {
      const source = yield* ChannelVisibility.ChannelVisibility
      const guilds = new Map<string, GuildEntry>()
      const entry = (guildId: string): GuildEntry => {
        let found = guilds.get(guildId)
        if (found === undefined) {
          found = { rules: undefined, members: new Map(), visible: new Map() }
          guilds.set(guildId, found)
        }
        return found
      }

      const prepare = (guildId: Snowflake.Snowflake, userIds: Iterable<Snowflake.Snowflake>): Effect.Effect<void> => {
        const guild = entry(guildId)
        const missing: Array<Snowflake.Snowflake> = []
        for (const userId of userIds) if (!guild.members.has(userId)) missing.push(userId)
        if (guild.rules !== undefined && missing.length === 0) return Effect.void
        return Effect.gen(function* () {
          if (guild.rules === undefined) {
            guild.rules = Option.getOrNull(yield* source.rules(guildId))
            guild.visible.clear()
          }
          const found = yield* Effect.forEach(missing, (userId) => source.member(guildId, userId), {
            concurrency: 16
          })
          missing.forEach((userId, index) => {
            guild.members.set(userId, Option.getOrNull(found[index] ?? Option.none()))
          })
        })
      }

      const visibleTo = (guild: GuildEntry, userId: string): ReadonlySet<string> => {
        const cached = guild.visible.get(userId)
        if (cached !== undefined) return cached
        const member = guild.members.get(userId)
        const rules = guild.rules
        const visible = rules == null || member == null ? NOTHING : ChannelVisibility.visibleChannels(rules, member)
        guild.visible.set(userId, visible)
        return visible
      }

      return ChannelViews.of({
        prepare,
        sees: (guildId, userId, scope) => {
          const guild = guilds.get(guildId)
          if (guild === undefined) return false
          if (scope.overwrites === undefined) return visibleTo(guild, userId).has(scope.channelId)
          const member = guild.members.get(userId)
          if (guild.rules == null || member == null) return false
          return ChannelVisibility.seesWith(guild.rules, member, ChannelVisibility.overwritesFromWire(scope.overwrites))
        },
        observe: (dispatch) => {
          if (dispatch.type === "GUILD_DELETE") {
            guilds.delete(dispatch.data.id)
            return
          }
          for (const guildId of dispatch.guildIds ?? []) {
            const guild = guilds.get(guildId)
            if (guild === undefined) continue
            if (DROPS_RULES.has(dispatch.type)) {
              guild.rules = undefined
              guild.visible.clear()
            } else if (DROPS_MEMBER.has(dispatch.type)) {
              const userId = field(field(dispatch.data, "user"), "id")
              if (typeof userId !== "string") continue
              guild.members.delete(userId)
              guild.visible.delete(userId)
            }
          }
        },
        forget: (guildId) => {
          guilds.delete(guildId)
        },
        clear: () => guilds.clear()
      })
    })
  )

  /** Everyone sees every channel (a host without guilds, unit tests of the fan-out). */
  static readonly layerEveryone: Layer.Layer<ChannelViews> = Layer.succeed(
    ChannelViews,
    ChannelViews.of({
      prepare: () => Effect.void,
      sees: () => true,
      observe: () => {},
      forget: () => {},
      clear: () => {}
    })
  )
}
