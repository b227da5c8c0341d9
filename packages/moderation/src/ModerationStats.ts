/**
 * The staff statistics (`GET /moderation/stats`), in the spec's shape, read from the rollups the
 * domains keep on write (`Tallies` in @veche/platform: a few rows per Moscow day and per active
 * guild of the last week, read at once by `snapshot`) and from the ports other domains answer
 * (StatsSources). Nothing here scans messages or users. Periods are Moscow days: "day" is today,
 * "week" today and the 6 days before, "month" and the series today and the 29 before; the funnel
 * counts the same 30 days. Reading also raises today's online peak with the current count, so the
 * peak holds even between the sampler's ticks (`OnlinePeaks`).
 */
import { MoscowDay, type Snowflake, Spans, Tallies } from "@veche/platform"
import { Context, DateTime, Effect, Layer } from "effect"
import { NotStaff } from "./ModerationErrors.ts"
import { Staff } from "./Staff.ts"
import { type Money, MoneyStats, OnlineNow, PushUsers, StatsGuilds, type Voice, VoiceStats } from "./StatsSources.ts"

export const SERIES_DAYS = 30
export const TOP_GUILDS = 10

export interface TopGuild {
  readonly id: Snowflake.Snowflake
  readonly name: string
  readonly messages: number
  readonly members: number
}

export interface Stats {
  readonly at: DateTime.Utc
  readonly users: {
    readonly total: number
    readonly new_day: number
    readonly new_week: number
    readonly new_month: number
    readonly with_email: number
    readonly deleted: number
  }
  readonly online: { readonly now: number; readonly peak_day: number }
  readonly active: { readonly day: number; readonly week: number; readonly month: number }
  readonly messages: { readonly day: number; readonly week: number; readonly dm_day: number }
  readonly voice: Voice
  readonly guilds: {
    readonly total: number
    readonly new_week: number
    readonly active_week: number
    readonly listed: number
    readonly top: ReadonlyArray<TopGuild>
  }
  readonly money: Money
  readonly funnel: { readonly started: number; readonly confirmed: number; readonly recover_started: number }
  readonly push_users: number
  readonly series: {
    readonly days: ReadonlyArray<string>
    readonly new_users: ReadonlyArray<number>
    readonly messages: ReadonlyArray<number>
    readonly active: ReadonlyArray<number>
    readonly peak_online: ReadonlyArray<number>
  }
}

export class ModerationStats extends Context.Service<
  ModerationStats,
  { readonly read: (staffId: Snowflake.Snowflake) => Effect.Effect<Stats, NotStaff> }
>()("@veche/moderation/ModerationStats") {
  static readonly layer: Layer.Layer<
    ModerationStats,
    never,
    Staff | StatsGuilds | OnlineNow | VoiceStats | MoneyStats | PushUsers
  > = Layer.effect(
    ModerationStats,
    Effect.gen(function* () {
      const staff = yield* Staff
      const guilds = yield* StatsGuilds
      const online = yield* OnlineNow
      const voice = yield* VoiceStats
      const money = yield* MoneyStats
      const push = yield* PushUsers
      // Read when the layer is built: the host provides the store with its repositories.
      const tallies = yield* Tallies.Tallies

      // The day's calendar is worked out once a day, not per request (the date arithmetic showed in
      // the route's profile).
      let calendar = { today: "", days: [] as ReadonlyArray<string>, weekStart: "", monthStart: "" }
      const calendarOf = (today: string) => {
        if (calendar.today !== today) {
          const days = MoscowDay.ending(today, SERIES_DAYS)
          calendar = { today, days, weekStart: MoscowDay.minus(today, 6), monthStart: days[0] ?? today }
        }
        return calendar
      }

      const read = Spans.fn("ModerationStats.read")(function* (staffId: Snowflake.Snowflake) {
        if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
        const at = yield* DateTime.now
        const { today, days, weekStart, monthStart } = calendarOf(MoscowDay.of(at))
        const [onlineNow, read, listed, voiceNow, moneyNow, pushUsers] = yield* Effect.all(
          [
            online.now,
            tallies.snapshot({ from: monthStart, to: today, guildsFrom: weekStart, top: TOP_GUILDS }),
            guilds.listed,
            voice.read(today),
            money.read(today),
            push.count
          ],
          { concurrency: "unbounded" }
        )
        // Each counter's 30 values in day order, filled in one pass over the rows.
        const dayIndex = new Map(days.map((day, index) => [day, index] as const))
        const byCounter = new Map<Tallies.Counter, Array<number>>()
        for (const row of read.days) {
          const index = dayIndex.get(row.day)
          if (index === undefined) continue
          const values = byCounter.get(row.counter) ?? Array.from(days, () => 0)
          values[index] = row.value
          byCounter.set(row.counter, values)
        }
        const zeros = Array.from(days, () => 0)
        const series = (counter: Tallies.Counter): ReadonlyArray<number> => byCounter.get(counter) ?? zeros
        const on = (day: string, counter: Tallies.Counter) => series(counter)[dayIndex.get(day) ?? -1] ?? 0
        const sum = (counter: Tallies.Counter, from: string) =>
          series(counter)
            .slice(dayIndex.get(from) ?? 0)
            .reduce((total, value) => total + value, 0)
        const gauges = read.gauges
        const guildWeek = read.guilds
        const [facts] = yield* Effect.all(
          [
            guilds.facts(guildWeek.top.map((guild) => guild.guildId)),
            // Raising today's peak is a write: only when the count now is above the one stored.
            onlineNow > on(today, "peak_online") ? tallies.peak(onlineNow, at) : Effect.void
          ],
          { concurrency: "unbounded" }
        )
        const top = guildWeek.top.flatMap((guild): ReadonlyArray<TopGuild> => {
          const found = facts.get(guild.guildId)
          return found === undefined
            ? []
            : [{ id: guild.guildId, name: found.name, messages: guild.messages, members: found.members }]
        })
        return {
          at,
          users: {
            total: gauges.users,
            new_day: on(today, "new_users"),
            new_week: sum("new_users", weekStart),
            new_month: sum("new_users", monthStart),
            with_email: gauges.with_email,
            deleted: gauges.users_deleted
          },
          online: { now: onlineNow, peak_day: Math.max(onlineNow, on(today, "peak_online")) },
          // A user active since a day has their last active day on it or later.
          active: {
            day: sum("last_active", today),
            week: sum("last_active", weekStart),
            month: sum("last_active", monthStart)
          },
          messages: { day: on(today, "messages"), week: sum("messages", weekStart), dm_day: on(today, "dm_messages") },
          voice: voiceNow,
          guilds: {
            total: gauges.guilds,
            new_week: sum("new_guilds", weekStart),
            active_week: guildWeek.active,
            listed,
            top
          },
          money: moneyNow,
          funnel: {
            started: sum("registrations_started", monthStart),
            confirmed: sum("registrations_confirmed", monthStart),
            recover_started: sum("recoveries_started", monthStart)
          },
          push_users: pushUsers,
          series: {
            days,
            new_users: series("new_users"),
            messages: series("messages"),
            active: series("active"),
            peak_online: series("peak_online").map((peak, index) =>
              index === days.length - 1 ? Math.max(onlineNow, peak) : peak
            )
          }
        } satisfies Stats
      })

      return ModerationStats.of({ read })
    })
  )
}
