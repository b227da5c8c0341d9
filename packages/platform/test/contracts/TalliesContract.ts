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
import { type DayValue, Tallies, type TalliesShape } from "../../src/Tallies.ts"

export type TalliesIt = Vitest.MethodsNonLive<never>

const at = (iso: string) => DateTime.makeUnsafe(iso)
const id = (n: number) => Snowflake.make(String(1_300_000_000_000_000_000n + BigInt(n)))

/**
 * Users active over three Moscow days, each day's requests all at once (several per user, spread
 * over the `nodes`, each with its own memory of whom it counted): then each user's later days in a
 * shuffled order. `days`, `activeSince` and `snapshot` must equal a count of who did what. Users
 * are numbered from `base` so that runs in one store do not meet.
 */
export const activityRace = (nodes: readonly [TalliesShape, ...Array<TalliesShape>], base: number) =>
  Effect.gen(function* () {
    const node = (n: number): TalliesShape => nodes[n % nodes.length] ?? nodes[0]
    const users = Array.from({ length: 30 }, (_, n) => id(base + n))
    const dayOf = ["2027-02-01", "2027-02-02", "2027-02-03", "2027-02-04", "2027-02-05"]
    const noon = (day: string) => at(`${day}T09:00:00Z`)
    // Day d: the users whose number is not a multiple of d + 2, each four requests at once.
    const activeOn = (d: number) => users.filter((_, n) => n % (d + 2) !== 0)
    for (let d = 0; d < 3; d++) {
      const day = dayOf[d] ?? ""
      yield* Effect.all(
        activeOn(d).flatMap((user, n) =>
          [0, 1, 2, 3].map((k) => Effect.suspend(() => node(n + k).active(user, noon(day))))
        ),
        { concurrency: "unbounded" }
      )
    }
    const rows = yield* node(0).days(dayOf[0] ?? "", dayOf[2] ?? "")
    const value = (day: string, counter: string) =>
      rows.find((row) => row.day === day && row.counter === counter)?.value ?? 0
    for (let d = 0; d < 3; d++) expect(value(dayOf[d] ?? "", "active")).toBe(activeOn(d).length)
    const lastDay = (n: number) => [2, 1, 0].find((d) => n % (d + 2) !== 0) ?? -1
    for (let d = 0; d < 3; d++) {
      expect(value(dayOf[d] ?? "", "last_active")).toBe(users.filter((_, n) => lastDay(n) === d).length)
      expect(yield* node(1).activeSince(dayOf[d] ?? "")).toBe(users.filter((_, n) => lastDay(n) >= d).length)
    }

    // Days 3 and 4 for the first ten users in a shuffled order, all at once: a user's last day only
    // moves forward, so whatever the order each ends on day 4, counted there once.
    const late = users
      .slice(0, 10)
      .flatMap((user, n) => [4, 3, 4, 3].map((d, k) => ({ user, day: dayOf[d] ?? "", node: n + k })))
    yield* Effect.all(
      late.map(({ user, day, node: n }) => Effect.suspend(() => node(n).active(user, noon(day)))),
      { concurrency: "unbounded" }
    )
    const snapshot = yield* node(0).snapshot({
      from: dayOf[0] ?? "",
      to: dayOf[4] ?? "",
      guildsFrom: dayOf[0] ?? "",
      top: 1
    })
    const lastActive = (day: string) =>
      snapshot.days.find((row) => row.day === day && row.counter === "last_active")?.value ?? 0
    expect(lastActive(dayOf[4] ?? "")).toBe(10)
    expect(lastActive(dayOf[3] ?? "")).toBe(0)
    expect(dayOf.reduce((total, day) => total + lastActive(day), 0)).toBe(
      users.filter((_, n) => n < 10 || lastDay(n) >= 0).length
    )
    expect(yield* node(0).activeSince(dayOf[3] ?? "")).toBe(10)
    expect(snapshot.days.every((row) => row.value > 0)).toBe(true)
  })

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
      // Users by their last active day: 10 moved on to the 2nd, 11 stayed on the 1st.
      expect(rows.filter((row) => row.counter === "last_active").sort((a, b) => (a.day < b.day ? -1 : 1))).toEqual([
        { day: "2026-05-01", counter: "last_active", value: 1 },
        { day: "2026-05-02", counter: "last_active", value: 1 }
      ])
    })
  )

  it.effect("the snapshot answers what days, gauges and guildsSince answer", () =>
    Effect.gen(function* () {
      const tallies = yield* Tallies
      yield* tallies.message({ guildId: id(500), at: at("2026-06-11T10:00:00Z") })
      yield* tallies.message({ guildId: id(501), at: at("2026-06-12T10:00:00Z") })
      yield* tallies.message({ guildId: id(501), at: at("2026-06-13T10:00:00Z") })
      yield* tallies.message({ guildId: null, at: at("2026-06-13T10:00:00Z") })
      yield* tallies.count("new_guilds", at("2026-06-12T10:00:00Z"))
      yield* tallies.active(id(502), at("2026-06-11T10:00:00Z"))
      yield* tallies.active(id(502), at("2026-06-13T10:00:00Z"))
      yield* tallies.gauge("guilds", 2)
      const sorted = (rows: ReadonlyArray<DayValue>) =>
        [...rows].sort((a, b) => (a.day + a.counter < b.day + b.counter ? -1 : 1))
      const snapshot = yield* tallies.snapshot({
        from: "2026-06-11",
        to: "2026-06-13",
        guildsFrom: "2026-06-12",
        top: 1
      })
      expect(sorted(snapshot.days)).toEqual(sorted(yield* tallies.days("2026-06-11", "2026-06-13")))
      expect(snapshot.gauges).toEqual(yield* tallies.gauges)
      expect(snapshot.guilds).toEqual(yield* tallies.guildsSince("2026-06-12", 1))
      expect(snapshot.guilds).toEqual({ active: 1, top: [{ guildId: id(501), messages: 2 }] })
      // The user moved from the 1st to the 3rd: no row left at 0 on the 1st.
      expect(snapshot.days.filter((row) => row.counter === "last_active")).toEqual([
        { day: "2026-06-13", counter: "last_active", value: 1 }
      ])
      expect(snapshot.days.filter((row) => row.counter === "messages").map((row) => row.value)).toEqual([1, 1, 2])
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

  it.effect("concurrent activity over days: active per day, last days and active since a day are exact", () =>
    Effect.flatMap(Tallies, (tallies) => activityRace([tallies], 1000))
  )
}
