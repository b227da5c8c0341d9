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
 *
 * A change of who sees what (overwrites, roles, a member's roles, the guild) is also told to the
 * sessions it concerns, as the platform does: a channel that became visible arrives as
 * CHANNEL_CREATE, one that became invisible as CHANNEL_DELETE. For that the rules of every guild
 * with sessions here are kept loaded (`prepare` when a session joins it), and such a dispatch
 * reloads them at once (`refresh`) and compares each recipient's channels before and after.
 */
import { ChannelVisibility, type Guild, GuildViews } from "@veche/guilds"
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
/** Whether a dispatch may change which channels someone sees (what `refresh` compares). */
export const changesSight = (type: string): boolean => DROPS_RULES.has(type) || type === "GUILD_MEMBER_UPDATE"

const DROPS_MEMBER: ReadonlySet<string> = new Set(["GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"])

/** Channels that became visible or invisible to one user (wire objects, for CHANNEL_CREATE / CHANNEL_DELETE). */
export interface Shift {
  readonly shown: ReadonlyArray<{ readonly id: string; readonly wire: unknown }>
  readonly hidden: ReadonlyArray<{ readonly id: string; readonly wire: unknown }>
}

/** What a visibility-changing dispatch changed, for its recipients on this node. */
export interface Refreshed {
  /** The channels the user saw before the change (undefined: the user was not known here before it). */
  readonly before: (userId: string) => ReadonlySet<string> | undefined
  /** The channels the user sees after it (as reloaded: what a later change is compared with). */
  readonly after: (userId: string) => ReadonlySet<string>
  /** Per user, the channels (other than a channel event's own) that appeared or disappeared. */
  readonly shifts: ReadonlyMap<string, Shift>
}

interface GuildEntry {
  /** undefined: not loaded; null: the guild is gone. */
  rules: Rules | null | undefined
  /** A member's record (null: not a member), kept across rule changes. */
  readonly members: Map<string, Member | null>
  /** The channels each member sees, derived from the two above. */
  readonly visible: Map<string, ReadonlySet<string>>
  /**
   * Counts what made this entry stale (a dropped or reloaded rule set or member). A load that
   * began before a change may have read the state before it; it stores nothing when this moved
   * while it read, and reads again.
   */
  generation: number
}

/**
 * Reads a `prepare` makes before it gives up storing (each read again because a change landed
 * while it read). Giving up leaves the guild or member unloaded: it sees nothing until the next
 * `prepare` reads it, which is the safe side (a stale view could show a hidden channel's events).
 */
const PREPARE_READS = 4

const NOTHING: ReadonlySet<string> = new Set()

export class ChannelViews extends Context.Service<
  ChannelViews,
  {
    /** Loads what the cache lacks to decide for these users in this guild (nothing when all are known). */
    readonly prepare: (guildId: Snowflake.Snowflake, userIds: Iterable<Snowflake.Snowflake>) => Effect.Effect<void>
    /**
     * A dispatch that changes who sees what (rules or a member), before it is delivered: reloads
     * what it changed and compares, for these users, the channels seen before and after. Undefined
     * when the dispatch changes nothing of the kind or the guild was not loaded here.
     */
    readonly refresh: (
      dispatch: Dispatch.Dispatch,
      userIds: Iterable<Snowflake.Snowflake>
    ) => Effect.Effect<Refreshed | undefined>
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
          found = { rules: undefined, members: new Map(), visible: new Map(), generation: 0 }
          guilds.set(guildId, found)
        }
        return found
      }

      const prepare = (guildId: Snowflake.Snowflake, userIds: Iterable<Snowflake.Snowflake>): Effect.Effect<void> => {
        const guild = entry(guildId)
        const missing = missingOf(guild, userIds)
        if (guild.rules !== undefined && missing.length === 0) return Effect.void
        return load(guild, guildId, missing)
      }
      const missingOf = (guild: GuildEntry, userIds: Iterable<Snowflake.Snowflake>) => {
        const missing: Array<Snowflake.Snowflake> = []
        for (const userId of userIds) if (!guild.members.has(userId)) missing.push(userId)
        return missing
      }
      // Dispatches are observed while a session's join reads: a change stored and dispatched after
      // the read began would otherwise be overwritten by what the read found before it.
      const load = Effect.fnUntraced(function* (
        guild: GuildEntry,
        guildId: Snowflake.Snowflake,
        userIds: ReadonlyArray<Snowflake.Snowflake>
      ) {
        let missing = userIds
        for (let read = 0; read < PREPARE_READS; read++) {
          const generation = guild.generation
          const rules = guild.rules === undefined ? Option.getOrNull(yield* source.rules(guildId)) : undefined
          const found = yield* Effect.forEach(missing, (userId) => source.member(guildId, userId), {
            concurrency: 16
          })
          if (guild.generation === generation) {
            if (rules !== undefined) {
              guild.rules = rules
              guild.visible.clear()
            }
            missing.forEach((userId, index) => {
              guild.members.set(userId, Option.getOrNull(found[index] ?? Option.none()))
            })
            return
          }
          missing = missingOf(guild, missing)
          if (guild.rules !== undefined && missing.length === 0) return
        }
      })
      const stale = (guild: GuildEntry) => {
        guild.generation += 1
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

      /** The dispatches `refresh` already applied: `observe` leaves the cache as they left it. */
      const refreshed = new WeakSet<Dispatch.Dispatch>()
      const wireOf = (channel: Guild.Channel) => ({ id: channel.id, wire: GuildViews.channel(channel) })

      const refresh = (
        dispatch: Dispatch.Dispatch,
        userIds: Iterable<Snowflake.Snowflake>
      ): Effect.Effect<Refreshed | undefined> => {
        const rulesChange = DROPS_RULES.has(dispatch.type)
        const memberChange = dispatch.type === "GUILD_MEMBER_UPDATE"
        const guildId = dispatch.guildIds?.length === 1 ? dispatch.guildIds[0] : undefined
        if ((!rulesChange && !memberChange) || guildId === undefined) return Effect.succeed(undefined)
        const guild = guilds.get(guildId)
        if (guild === undefined || guild.rules == null) return Effect.succeed(undefined)
        const changedUser = memberChange ? field(field(dispatch.data, "user"), "id") : undefined
        if (memberChange && typeof changedUser !== "string") return Effect.succeed(undefined)
        return Effect.gen(function* () {
          const users = memberChange ? [changedUser as Snowflake.Snowflake] : [...new Set(userIds)]
          const oldRules = guild.rules
          if (oldRules == null) return undefined
          const before = new Map<string, ReadonlySet<string>>()
          for (const userId of users) if (guild.members.has(userId)) before.set(userId, visibleTo(guild, userId))
          stale(guild)
          if (rulesChange) {
            guild.rules = Option.getOrNull(yield* source.rules(guildId))
            guild.visible.clear()
          } else {
            const userId = changedUser as Snowflake.Snowflake
            guild.members.set(userId, Option.getOrNull(yield* source.member(guildId, userId)))
            guild.visible.delete(userId)
          }
          refreshed.add(dispatch)
          const newRules = guild.rules
          const own = scopeOf(dispatch.type, dispatch.data)?.channelId
          const shifts = new Map<string, Shift>()
          for (const [userId, saw] of before) {
            const sees = visibleTo(guild, userId)
            const shown: Array<{ id: string; wire: unknown }> = []
            const hidden: Array<{ id: string; wire: unknown }> = []
            for (const channel of newRules?.channels ?? [])
              if (channel.id !== own && sees.has(channel.id) && !saw.has(channel.id)) shown.push(wireOf(channel))
            for (const channel of oldRules.channels)
              if (channel.id !== own && saw.has(channel.id) && !sees.has(channel.id)) hidden.push(wireOf(channel))
            if (shown.length > 0 || hidden.length > 0) shifts.set(userId, { shown, hidden })
          }
          return {
            before: (userId: string) => before.get(userId),
            after: (userId: string) => visibleTo(guild, userId),
            shifts
          }
        })
      }

      return ChannelViews.of({
        prepare,
        refresh,
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
          if (refreshed.has(dispatch)) return
          for (const guildId of dispatch.guildIds ?? []) {
            const guild = guilds.get(guildId)
            if (guild === undefined) continue
            if (DROPS_RULES.has(dispatch.type)) {
              stale(guild)
              guild.rules = undefined
              guild.visible.clear()
            } else if (DROPS_MEMBER.has(dispatch.type)) {
              const userId = field(field(dispatch.data, "user"), "id")
              if (typeof userId !== "string") continue
              stale(guild)
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
      refresh: () => Effect.succeed(undefined),
      sees: () => true,
      observe: () => {},
      forget: () => {},
      clear: () => {}
    })
  )
}
