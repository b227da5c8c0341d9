/**
 * Where presence lives, shared by every node (Redis with REDIS_URL, this process without): per user
 * the chosen presence (status and activities) and the guilds it is shown in, the live gateway
 * sessions with the time each expires unless refreshed, and a deadline after which a sweep decides
 * whether the user went offline. A user is present while their entry exists; the entry goes only
 * through `sweep`, once no session is live at the deadline (the last one ended and the grace passed,
 * or a crashed node stopped refreshing its sessions), and exactly one sweeper claims it (it then
 * announces the user offline). Per guild the visible users (not invisible) are kept as a set, which
 * the online counts read. Times are given by the caller (the Clock), so a test clock drives it.
 */
import type { Snowflake } from "@veche/platform"
import { Context, Effect, Layer, Option } from "effect"

export type Status = "online" | "idle" | "dnd" | "invisible"

/** An activity as the platform's presence carries it (type 4 is a custom status). */
export interface Activity {
  readonly type: number
  readonly name: string
  readonly state?: string | null
  readonly url?: string | null
  readonly emoji?: { readonly name: string } | null
}

/** A user's chosen presence. */
export interface Entry {
  readonly status: Status
  readonly activities: ReadonlyArray<Activity>
}

/** A user the sweep found offline: their last presence and the guilds it was shown in. */
export interface Claimed {
  readonly userId: Snowflake.Snowflake
  readonly entry: Entry
  readonly guildIds: ReadonlyArray<Snowflake.Snowflake>
}

export interface SessionLease {
  readonly id: string
  /** The caller's time now (ms since the epoch; a Redis adapter expires keys relative to it). */
  readonly now: number
  /** When the session counts as gone unless refreshed. */
  readonly until: number
}

export class PresenceStore extends Context.Service<
  PresenceStore,
  {
    /**
     * Sets a user's presence and the guilds it shows in, with a session that keeps it alive (its
     * lease added or renewed). Without a session it only changes a present user (None: absent,
     * nothing written). Answers the entry before, None when the user was offline.
     */
    readonly put: (
      userId: Snowflake.Snowflake,
      entry: Entry,
      guildIds: ReadonlyArray<Snowflake.Snowflake>,
      session: SessionLease | undefined
    ) => Effect.Effect<Option.Option<Entry>>
    /** Renews these sessions' leases; answers those no longer known (expired), to be put again. */
    readonly refresh: (
      sessions: ReadonlyArray<{ readonly userId: Snowflake.Snowflake; readonly sessionId: string }>,
      now: number,
      until: number
    ) => Effect.Effect<ReadonlyArray<string>>
    /** A session ended: when none of the user's is live any more, the user is due at `graceUntil`. */
    readonly end: (
      userId: Snowflake.Snowflake,
      sessionId: string,
      now: number,
      graceUntil: number
    ) => Effect.Effect<void>
    /** Users due by `now` with no live session: removed, each answered to exactly one caller. */
    readonly sweep: (now: number) => Effect.Effect<ReadonlyArray<Claimed>>
    /** The present users among these, with their presence. */
    readonly get: (
      userIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, Entry>>
    /**
     * A present user joined or left a guild (their presence then shows there, or stops to). `joinGuild`
     * answers true when the presence newly shows there: to one caller only (several nodes may hear of
     * the join), which tells the guild.
     */
    readonly joinGuild: (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) => Effect.Effect<boolean>
    readonly leaveGuild: (userId: Snowflake.Snowflake, guildId: Snowflake.Snowflake) => Effect.Effect<void>
    /** The visible (present, not invisible) users of a guild. */
    readonly visibleIn: (guildId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /** How many visible users each guild has. */
    readonly guildCounts: (
      guildIds: ReadonlyArray<Snowflake.Snowflake>
    ) => Effect.Effect<ReadonlyMap<Snowflake.Snowflake, number>>
    /** Visible users right now, across the platform. */
    readonly onlineCount: Effect.Effect<number>
  }
>()("@veche/gateway/PresenceStore") {
  /** One process (no Redis): the same rules over maps. */
  static readonly layerMemory: Layer.Layer<PresenceStore> = Layer.sync(PresenceStore, () => {
    type Id = Snowflake.Snowflake
    const entries = new Map<Id, Entry>()
    const guildsOf = new Map<Id, Set<Id>>()
    const leases = new Map<Id, Map<string, number>>()
    const deadlines = new Map<Id, number>()
    const visible = new Set<Id>()
    const byGuild = new Map<Id, Set<Id>>()

    /** Whether it was not shown there yet. */
    const showIn = (guildId: Id, userId: Id): boolean => {
      const set = byGuild.get(guildId) ?? new Set<Id>()
      const fresh = !set.has(userId)
      byGuild.set(guildId, set.add(userId))
      return fresh
    }
    const hideIn = (guildId: Id, userId: Id) => {
      const set = byGuild.get(guildId)
      if (set?.delete(userId) === true && set.size === 0) byGuild.delete(guildId)
    }
    const hide = (userId: Id) => {
      for (const guildId of guildsOf.get(userId) ?? []) hideIn(guildId, userId)
      visible.delete(userId)
    }
    const extend = (userId: Id, until: number) => {
      if ((deadlines.get(userId) ?? Number.NEGATIVE_INFINITY) < until) deadlines.set(userId, until)
    }
    const live = (userId: Id, now: number) => {
      const found = leases.get(userId)
      if (found === undefined) return []
      for (const [id, until] of found) if (until <= now) found.delete(id)
      return [...found.values()]
    }

    return PresenceStore.of({
      put: (userId, entry, guildIds, session) =>
        Effect.sync(() => {
          const before = entries.get(userId)
          if (before === undefined && session === undefined) return Option.none()
          if (session !== undefined) {
            const found = leases.get(userId) ?? new Map<string, number>()
            leases.set(userId, found.set(session.id, session.until))
            extend(userId, session.until)
          }
          hide(userId)
          entries.set(userId, entry)
          guildsOf.set(userId, new Set(guildIds))
          if (entry.status !== "invisible") {
            visible.add(userId)
            for (const guildId of guildIds) showIn(guildId, userId)
          }
          return Option.fromUndefinedOr(before)
        }),
      refresh: (sessions, _now, until) =>
        Effect.sync(() => {
          const lost: Array<string> = []
          for (const { userId, sessionId } of sessions) {
            const found = leases.get(userId)
            if (found?.has(sessionId) !== true) {
              lost.push(sessionId)
              continue
            }
            found.set(sessionId, until)
            extend(userId, until)
          }
          return lost
        }),
      end: (userId, sessionId, now, graceUntil) =>
        Effect.sync(() => {
          leases.get(userId)?.delete(sessionId)
          if (live(userId, now).length === 0 && entries.has(userId)) deadlines.set(userId, graceUntil)
        }),
      sweep: (now) =>
        Effect.sync(() => {
          const claimed: Array<Claimed> = []
          for (const [userId, deadline] of [...deadlines]) {
            if (deadline > now) continue
            const remaining = live(userId, now)
            if (remaining.length > 0) {
              deadlines.set(userId, Math.max(...remaining))
              continue
            }
            const entry = entries.get(userId)
            const guildIds = [...(guildsOf.get(userId) ?? [])]
            hide(userId)
            deadlines.delete(userId)
            leases.delete(userId)
            entries.delete(userId)
            guildsOf.delete(userId)
            if (entry !== undefined) claimed.push({ userId, entry, guildIds })
          }
          return claimed
        }),
      get: (userIds) =>
        Effect.sync(() => {
          const found = new Map<Id, Entry>()
          for (const userId of userIds) {
            const entry = entries.get(userId)
            if (entry !== undefined) found.set(userId, entry)
          }
          return found
        }),
      joinGuild: (userId, guildId) =>
        Effect.sync(() => {
          const guilds = guildsOf.get(userId)
          if (guilds === undefined) return false
          guilds.add(guildId)
          return visible.has(userId) && showIn(guildId, userId)
        }),
      leaveGuild: (userId, guildId) =>
        Effect.sync(() => {
          guildsOf.get(userId)?.delete(guildId)
          hideIn(guildId, userId)
        }),
      visibleIn: (guildId) => Effect.sync(() => [...(byGuild.get(guildId) ?? [])]),
      guildCounts: (guildIds) => Effect.sync(() => new Map(guildIds.map((id) => [id, byGuild.get(id)?.size ?? 0]))),
      onlineCount: Effect.sync(() => visible.size)
    })
  })
}
