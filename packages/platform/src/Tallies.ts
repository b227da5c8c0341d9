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
import type { DateTime } from "effect"
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
  /** Users active on `day` or later. */
  readonly activeSince: (day: string) => Effect.Effect<number>
  /** Guilds with messages on `day` or later, and the `top` of them by those messages (most first, then id). */
  readonly guildsSince: (
    day: string,
    top: number
  ) => Effect.Effect<{ readonly active: number; readonly top: ReadonlyArray<GuildMessages> }>
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
  guildsSince: () => Effect.succeed({ active: 0, top: [] })
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
      days: (from, to) =>
        Effect.sync(() =>
          [...dayValues].flatMap(([day, values]) =>
            day >= from && day <= to ? [...values].map(([counter, value]) => ({ day, counter, value })) : []
          )
        ),
      gauges: Effect.sync(() => ({ ...gauges })),
      activeSince: (day) => Effect.sync(() => [...lastActive.values()].filter((last) => last >= day).length),
      guildsSince: (day, top) =>
        Effect.sync(() => {
          const sums = new Map<Snowflake, number>()
          for (const [guildDay, guilds] of guildDays) {
            if (guildDay < day) continue
            for (const [guildId, messages] of guilds) sums.set(guildId, (sums.get(guildId) ?? 0) + messages)
          }
          const ranked = [...sums].map(([guildId, messages]) => ({ guildId, messages })).sort(byMessages)
          return { active: sums.size, top: ranked.slice(0, top) }
        })
    }
    return shape
  })
)
