/**
 * The one behaviour suite every Tallies store must pass (memory in every run, PostgreSQL when
 * DATABASE_URL is set): Moscow days cut at 21:00 UTC, windows inclusive of their first day, each
 * user active once a day, peaks as maxima, the top guilds by messages, and exact counts under
 * concurrent writers.
 */
import { expect, type Vitest } from "@effect/vitest"
import { DateTime, Effect } from "effect"
import * as MoscowDay from "../../src/MoscowDay.ts"
import { Snowflake } from "../../src/Snowflake.ts"
import { Tallies } from "../../src/Tallies.ts"

export type TalliesIt = Vitest.MethodsNonLive<never>

const at = (iso: string) => DateTime.makeUnsafe(iso)
const id = (n: number) => Snowflake.make(String(1_300_000_000_000_000_000n + BigInt(n)))

export const talliesContract = (it: TalliesIt) => {
  it.effect("days are Moscow days: 20:59 UTC is the day, 21:00 UTC the next", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      yield* tallies.count("new_users", at("2026-03-01T20:59:59Z"))
      yield* tallies.count("new_users", at("2026-03-01T21:00:00Z"))
      yield* tallies.count("new_users", at("2026-03-02T20:00:00Z"))
      yield* tallies.count("registrations_started", at("2026-02-28T21:00:00Z"))
      const rows = yield* tallies.days("2026-03-01", "2026-03-02")
      expect([...rows].sort((a, b) => (a.day + a.counter < b.day + b.counter ? -1 : 1))).toEqual([
        { day: "2026-03-01", counter: "new_users", value: 1 },
        { day: "2026-03-01", counter: "registrations_started", value: 1 },
        { day: "2026-03-02", counter: "new_users", value: 2 }
      ])
      expect(yield* tallies.days("2026-03-03", "2026-03-09")).toEqual([])
      expect(MoscowDay.of(at("2026-03-01T21:00:00Z"))).toBe("2026-03-02")
    })
  )

  it.effect("messages by day and guild; direct messages apart; the top of a window, ties by id", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      const say = (guild: number | null, iso: string, times: number) =>
        Effect.repeat(tallies.message({ guildId: guild === null ? null : id(guild), at: at(iso) }), {
          times: times - 1
        })
      yield* say(1, "2026-04-01T10:00:00Z", 3)
      yield* say(2, "2026-04-01T10:00:00Z", 1)
      yield* say(2, "2026-04-02T10:00:00Z", 5)
      yield* say(3, "2026-04-02T10:00:00Z", 3)
      yield* say(null, "2026-04-02T10:00:00Z", 2)
      const rows = yield* tallies.days("2026-04-01", "2026-04-02")
      const value = (day: string, counter: string) =>
        rows.find((row) => row.day === day && row.counter === counter)?.value ?? 0
      expect([value("2026-04-01", "messages"), value("2026-04-02", "messages")]).toEqual([4, 10])
      expect([value("2026-04-01", "dm_messages"), value("2026-04-02", "dm_messages")]).toEqual([0, 2])
      expect(yield* tallies.guildsSince("2026-04-01", 10)).toEqual({
        active: 3,
        top: [
          { guildId: id(2), messages: 6 },
          { guildId: id(1), messages: 3 },
          { guildId: id(3), messages: 3 }
        ]
      })
      expect(yield* tallies.guildsSince("2026-04-02", 1)).toEqual({ active: 2, top: [{ guildId: id(2), messages: 5 }] })
      expect(yield* tallies.guildsSince("2026-04-03", 10)).toEqual({ active: 0, top: [] })
    })
  )

  it.effect("a user is active once a day; activeSince counts users by their last day", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      yield* tallies.active(id(10), at("2026-05-01T08:00:00Z"))
      yield* tallies.active(id(10), at("2026-05-01T09:00:00Z"))
      yield* tallies.active(id(11), at("2026-05-01T20:59:00Z"))
      yield* tallies.active(id(10), at("2026-05-02T08:00:00Z"))
      // an earlier day after a later one changes nothing
      yield* tallies.active(id(10), at("2026-04-30T08:00:00Z"))
      const rows = yield* tallies.days("2026-04-30", "2026-05-02")
      expect(rows.filter((row) => row.counter === "active").sort((a, b) => (a.day < b.day ? -1 : 1))).toEqual([
        { day: "2026-05-01", counter: "active", value: 2 },
        { day: "2026-05-02", counter: "active", value: 1 }
      ])
      expect(yield* tallies.activeSince("2026-05-01")).toBe(2)
      expect(yield* tallies.activeSince("2026-05-02")).toBe(1)
      expect(yield* tallies.activeSince("2026-05-03")).toBe(0)
    })
  )

  it.effect("the online peak is the day's maximum; gauges move by deltas", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      for (const online of [5, 3, 7, 0, 6]) yield* tallies.peak(online, at("2026-06-01T12:00:00Z"))
      const peaks = (yield* tallies.days("2026-06-01", "2026-06-01")).filter((row) => row.counter === "peak_online")
      expect(peaks).toEqual([{ day: "2026-06-01", counter: "peak_online", value: 7 }])
      const before = yield* tallies.gauges
      yield* tallies.gauge("users", 1)
      yield* tallies.gauge("users", 1)
      yield* tallies.gauge("users", -1)
      yield* tallies.gauge("with_email", 2)
      const after = yield* tallies.gauges
      expect(after).toEqual({ ...before, users: before.users + 1, with_email: before.with_email + 2 })
    })
  )

  it.effect("concurrent writers: every message counted, a user active once", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      const when = at("2026-07-01T12:00:00Z")
      yield* Effect.all(
        Array.from({ length: 40 }, (_, n) => tallies.message({ guildId: id(100 + (n % 4)), at: when })),
        { concurrency: "unbounded" }
      )
      yield* Effect.all(
        Array.from({ length: 20 }, () => tallies.active(id(200), when)),
        { concurrency: "unbounded" }
      )
      const rows = yield* tallies.days("2026-07-01", "2026-07-01")
      expect(rows.find((row) => row.counter === "messages")?.value).toBe(40)
      expect(rows.find((row) => row.counter === "active")?.value).toBe(1)
      const week = yield* tallies.guildsSince("2026-07-01", 10)
      expect(week.active).toBe(4)
      expect(week.top.map((guild) => guild.messages)).toEqual([10, 10, 10, 10])
    })
  )
}
