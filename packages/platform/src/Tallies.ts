/**
 * The platform's statistics as rollups kept on write: the domains count what happens (a
 * registration started or confirmed, a message, an active user, a new guild) on the Moscow day it
 * happens, and staff statistics read a few rows per day instead of scanning the domains' tables.
 *
 * It lives here, below every domain, so each can count without knowing who reads. Counting never
 * fails the write it follows (adapters log their own trouble), and a host that provides no store
 * counts nothing: the default is `none`. Hosts provide `layerMemory` or the PostgreSQL adapter
 * (`PgTallies` in @veche/postgres).
 */
import type { DateTime, Duration } from "effect"
import { Context, Effect, Layer } from "effect"
import * as MoscowDay from "./MoscowDay.ts"
import type { Snowflake } from "./Snowflake.ts"

/** Per-day counters; each +1 per event on its Moscow day. */
export type Counter =
  | "new_users"
  | "messages"
  | "dm_messages"
  | "new_guilds"
  | "registrations_started"
  | "registrations_confirmed"
  | "recoveries_started"
  /** Users active that day (each counted once a day, see `active`). */
  | "active"
  /**
   * Users whose last active day is that day: a user's first activity of a day moves them here from
   * their previous day (+1 here, -1 there). Users active on `day` or later are the sum of this
   * counter over those days (`activeSince`), a few rows whatever the number of users.
   */
  | "last_active"
  /** The most users online at once that day (a maximum, see `peak`). */
  | "peak_online"

/** Running totals, moved by deltas. */
export type Gauge = "users" | "users_deleted" | "with_email" | "guilds"

export const GAUGES: ReadonlyArray<Gauge> = ["users", "users_deleted", "with_email", "guilds"]

export interface DayValue {
  readonly day: string
  readonly counter: Counter
  readonly value: number
}

export interface GuildMessages {
  readonly guildId: Snowflake
  readonly messages: number
}

/** What the statistics read at once: the days' counters, the running totals and the guilds' week. */
export interface Snapshot {
  /** Every counter of the days `from`..`to` that has a value, as `days` answers. */
  readonly days: ReadonlyArray<DayValue>
  readonly gauges: Readonly<Record<Gauge, number>>
  /** As `guildsSince(guildsFrom, top)` answers. */
  readonly guilds: { readonly active: number; readonly top: ReadonlyArray<GuildMessages> }
}

export interface SnapshotWindow {
  readonly from: string
  readonly to: string
  readonly guildsFrom: string
  readonly top: number
}

/** A running total the recount found off, and what it set. */
export interface Correction {
  readonly gauge: Gauge
  readonly was: number
  readonly now: number
}

export interface TalliesShape {
  /** +1 on the counter of the Moscow day of `at`. */
  readonly count: (counter: Exclude<Counter, "active" | "peak_online">, at: DateTime.Utc) => Effect.Effect<void>
  /** A message sent: the day's messages (and DMs, `guildId` null) and the guild's messages that day. */
  readonly message: (message: { readonly guildId: Snowflake | null; readonly at: DateTime.Utc }) => Effect.Effect<void>
  /** The user did something: counted once per user and Moscow day (later calls that day change nothing). */
  readonly active: (userId: Snowflake, at: DateTime.Utc) => Effect.Effect<void>
  /** Users online now: raises the day's peak when higher. */
  readonly peak: (online: number, at: DateTime.Utc) => Effect.Effect<void>
  readonly gauge: (gauge: Gauge, delta: number) => Effect.Effect<void>
  /** Every counter of the days `from`..`to` (inclusive) that has a value. */
  readonly days: (from: string, to: string) => Effect.Effect<ReadonlyArray<DayValue>>
  readonly gauges: Effect.Effect<Readonly<Record<Gauge, number>>>
  /** Users active on `day` or later (the `last_active` counters of those days). */
  readonly activeSince: (day: string) => Effect.Effect<number>
  /** Guilds with messages on `day` or later, and the `top` of them by those messages (most first, then id). */
  readonly guildsSince: (
    day: string,
    top: number
  ) => Effect.Effect<{ readonly active: number; readonly top: ReadonlyArray<GuildMessages> }>
  /** `days`, `gauges` and `guildsSince` at once (on PostgreSQL one statement). */
  readonly snapshot: (window: SnapshotWindow) => Effect.Effect<Snapshot>
  /**
   * Sets the running totals from the tables they count, unless a recount ran less than `every`
   * before `at` (the last run is kept in the store, so restarts do not repeat it and one node of
   * many runs it). Answers null when it did not run, else the totals it found off. A store whose
   * totals cannot drift from their writes (memory: one process, a bump never fails) has nothing to
   * recount.
   */
  readonly recount: (at: DateTime.Utc, every: Duration.Duration) => Effect.Effect<ReadonlyArray<Correction> | null>
}

const zeroGauges = (): Record<Gauge, number> => ({ users: 0, users_deleted: 0, with_email: 0, guilds: 0 })

/** Counts nothing, reads zeros: a host without statistics. */
export const none: TalliesShape = {
  count: () => Effect.void,
  message: () => Effect.void,
  active: () => Effect.void,
  peak: () => Effect.void,
  gauge: () => Effect.void,
  days: () => Effect.succeed([]),
  gauges: Effect.sync(zeroGauges),
  activeSince: () => Effect.succeed(0),
  guildsSince: () => Effect.succeed({ active: 0, top: [] }),
  snapshot: () => Effect.sync(() => ({ days: [], gauges: zeroGauges(), guilds: { active: 0, top: [] } })),
  recount: () => Effect.succeed(null)
}

export const Tallies: Context.Reference<TalliesShape> = Context.Reference<TalliesShape>("@veche/platform/Tallies", {
  defaultValue: () => none
})

/** Orders guilds by messages, most first, then by id (stable for equal counts). */
export const byMessages = (a: GuildMessages, b: GuildMessages): number =>
  b.messages - a.messages ||
  (BigInt(a.guildId) < BigInt(b.guildId) ? -1 : BigInt(a.guildId) > BigInt(b.guildId) ? 1 : 0)

/** One process's tallies in memory, fresh per build. */
export const layerMemory: Layer.Layer<never> = Layer.effect(
  Tallies,
  Effect.sync(() => {
    const dayValues = new Map<string, Map<Counter, number>>()
    const counters = (day: string) => {
      const found = dayValues.get(day)
      if (found !== undefined) return found
      const made = new Map<Counter, number>()
      dayValues.set(day, made)
      return made
    }
    const bump = (day: string, counter: Counter, by: number) => {
      const values = counters(day)
      values.set(counter, (values.get(counter) ?? 0) + by)
    }
    const gauges = zeroGauges()
    const lastActive = new Map<Snowflake, string>()
    const guildDays = new Map<string, Map<Snowflake, number>>()
    const days = (from: string, to: string): ReadonlyArray<DayValue> =>
      [...dayValues].flatMap(([day, values]) =>
        day >= from && day <= to
          ? [...values].flatMap(([counter, value]) => (value === 0 ? [] : [{ day, counter, value }]))
          : []
      )
    const guildsSince = (day: string, top: number) => {
      const sums = new Map<Snowflake, number>()
      for (const [guildDay, guilds] of guildDays) {
        if (guildDay < day) continue
        for (const [guildId, messages] of guilds) sums.set(guildId, (sums.get(guildId) ?? 0) + messages)
      }
      const ranked = [...sums].map(([guildId, messages]) => ({ guildId, messages })).sort(byMessages)
      return { active: sums.size, top: ranked.slice(0, top) }
    }
    const shape: TalliesShape = {
      count: (counter, at) => Effect.sync(() => bump(MoscowDay.of(at), counter, 1)),
      message: ({ guildId, at }) =>
        Effect.sync(() => {
          const day = MoscowDay.of(at)
          bump(day, "messages", 1)
          if (guildId === null) return bump(day, "dm_messages", 1)
          const guilds = guildDays.get(day) ?? new Map<Snowflake, number>()
          guilds.set(guildId, (guilds.get(guildId) ?? 0) + 1)
          guildDays.set(day, guilds)
        }),
      active: (userId, at) =>
        Effect.sync(() => {
          const day = MoscowDay.of(at)
          const last = lastActive.get(userId)
          if (last !== undefined && last >= day) return
          lastActive.set(userId, day)
          bump(day, "active", 1)
          bump(day, "last_active", 1)
          if (last !== undefined) bump(last, "last_active", -1)
        }),
      peak: (online, at) =>
        Effect.sync(() => {
          const values = counters(MoscowDay.of(at))
          if (online > (values.get("peak_online") ?? 0)) values.set("peak_online", online)
        }),
      gauge: (gauge, delta) =>
        Effect.sync(() => {
          gauges[gauge] += delta
        }),
      days: (from, to) => Effect.sync(() => days(from, to)),
      gauges: Effect.sync(() => ({ ...gauges })),
      activeSince: (day) =>
        Effect.sync(() => {
          let users = 0
          for (const [counted, values] of dayValues) if (counted >= day) users += values.get("last_active") ?? 0
          return users
        }),
      guildsSince: (day, top) => Effect.sync(() => guildsSince(day, top)),
      snapshot: ({ from, to, guildsFrom, top }) =>
        Effect.sync(() => ({ days: days(from, to), gauges: { ...gauges }, guilds: guildsSince(guildsFrom, top) })),
      recount: () => Effect.succeed(null)
    }
    return shape
  })
)
