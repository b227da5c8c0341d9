/**
 * `GET /moderation/stats` through HTTP, as scenarios any test host runs: test/moderation-stats.test.ts
 * on memory, adapters/postgres/test/StatsRoutes.test.ts on PostgreSQL. The test seeds users,
 * guilds and messages across several Moscow days with the host's clock (including both sides of
 * 21:00 UTC, where a Moscow day ends) and logs every act it makes; each statistic is then compared
 * with a count of that log.
 */
import { describe, expect, layer } from "@effect/vitest"
import { MoscowDay } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { DateTime, Duration, Effect, type Layer } from "effect"
import { awaitMessage, json, login, PASSWORD, post, register, send } from "./Accounts.ts"

const API = "/api/v10"
const STAFF_PHONE = "+79471000000"

interface Person {
  readonly userId: string
  readonly phone: string
  token: string
}

/**
 * `weekLater`: the last acts and the reading come a week after the first days, so those fall out of
 * the week but stay in the month. A week of the host's clock runs every periodic job's ticks (the
 * delivery worker polls PostgreSQL each second: many minutes there), so the PostgreSQL run reads on
 * day B; the windows' edges are held on both stores by the Tallies contract suite.
 */
export const statsScenarios = (
  repositories?: () => Layer.Layer<TestHost.Repositories>,
  { weekLater = true }: { readonly weekLater?: boolean } = {}
) => {
  const host = () =>
    TestHost.layer({ rateLimits: { enabled: false }, staff: { phones: [STAFF_PHONE] }, repositories: repositories?.() })

  describe("GET /moderation/stats", () => {
    layer(host())((it) => {
      it.effect(
        "staff only; every statistic equals a direct count of what was done, by Moscow days",
        () =>
          Effect.gen(function* () {
            const testHost = yield* TestHost.TestHost
            const now = testHost.run(DateTime.now)
            const today = Effect.map(now, MoscowDay.of)
            // What the test did, by Moscow day: the direct count the statistics must equal.
            const registered: Array<string> = []
            const started: Array<string> = []
            const recoveries: Array<string> = []
            const active: Array<{ readonly userId: string; readonly day: string }> = []
            const messages: Array<{ readonly guildId: string; readonly day: string }> = []
            const guilds: Array<{ readonly id: string; readonly name: string; readonly day: string }> = []
            let withEmail = 0

            let phone = 79471000000
            const join = (name: string, extra: Record<string, unknown> = {}) =>
              Effect.gen(function* () {
                const number = `+${phone++}`
                started.push(yield* today)
                const made = yield* register(number, `${name}_${phone % 100000}`, extra)
                registered.push(yield* today)
                return { userId: made.user_id, phone: number, token: made.access_token } as Person
              })
            /** A request with the person's token: they are active today. A day later the token has expired. */
            const act = (person: Person, method: string, path: string, body?: unknown) =>
              Effect.gen(function* () {
                active.push({ userId: person.userId, day: yield* today })
                return yield* send(method, `${API}${path}`, body, person.token)
              })
            const relogin = (person: Person) =>
              Effect.gen(function* () {
                const answer = yield* login({ login: person.phone, password: PASSWORD })
                expect(answer.status).toBe(200)
                person.token = ((yield* json(answer)) as { access_token: string }).access_token
              })
            const guild = (person: Person, name: string) =>
              Effect.gen(function* () {
                const made = yield* act(person, "POST", "/guilds", { name })
                expect(made.status).toBe(201)
                const body = (yield* json(made)) as { id: string; system_channel_id: string }
                guilds.push({ id: body.id, name, day: yield* today })
                return body
              })
            const say = (person: Person, place: { id: string; system_channel_id: string }, times: number) =>
              Effect.gen(function* () {
                for (let i = 0; i < times; i++) {
                  const sent = yield* act(person, "POST", `/channels/${place.system_channel_id}/messages`, {
                    content: `hello ${i}`
                  })
                  expect(sent.status).toBe(200)
                  messages.push({ guildId: place.id, day: yield* today })
                }
              })
            const stats = (person: Person) =>
              Effect.gen(function* () {
                const answer = yield* act(person, "GET", "/moderation/stats")
                expect(answer.status).toBe(200)
                return (yield* json(answer)) as Stats
              })

            // Moscow day A (the host starts at 00:00 UTC, 03:00 in Moscow)
            const staff = yield* join("stats_staff")
            const alice = yield* join("stats_alice")
            const bob = yield* join("stats_bob", { email: "stats.bob@example.org" })
            const letter = yield* awaitMessage("stats.bob@example.org", "email_verify")
            expect((yield* post(`${API}/auth/email/verify`, { token: letter?.token })).status).toBe(200)
            withEmail++
            const g1 = yield* guild(alice, "Alpha")
            const g2 = yield* guild(bob, "Beta")
            yield* say(alice, g1, 3)
            yield* say(bob, g2, 2)

            // Refusals: another user 403 50013, no credentials 401.
            const refused = yield* act(alice, "GET", "/moderation/stats")
            expect(refused.status).toBe(403)
            expect(yield* json(refused)).toEqual({ code: 50013, message: "Missing Permissions" })
            active.push({ userId: alice.userId, day: yield* today })
            expect((yield* send("GET", `${API}/moderation/stats`)).status).toBe(401)

            // 20:59 UTC: still day A in Moscow
            yield* testHost.adjustClock(Duration.minutes(20 * 60 + 59))
            yield* relogin(alice)
            const dayA = yield* today
            yield* say(alice, g1, 1)
            expect(yield* today).toBe("2026-01-01")

            // 21:01 UTC: day B in Moscow
            yield* testHost.adjustClock(Duration.minutes(2))
            expect(yield* today).toBe("2026-01-02")
            yield* relogin(bob)
            yield* say(bob, g2, 2)
            const carol = yield* join("stats_carol")
            const recover = yield* post(`${API}/auth/recover/phone`, { phone: carol.phone, captcha_token: "dev" })
            expect(recover.status).toBe(200)
            recoveries.push(yield* today)

            if (weekLater) {
              // A week later (day C): days A and B are out of the week, in the month.
              yield* testHost.adjustClock(Duration.days(7))
              yield* relogin(carol)
              expect(yield* today).toBe("2026-01-09")
            }
            yield* relogin(staff)
            const g3 = yield* guild(carol, "Gamma")
            yield* say(carol, g3, 4)

            const body = yield* stats(staff)
            const day = yield* today
            const weekStart = MoscowDay.minus(day, 6)
            const monthStart = MoscowDay.minus(day, 29)
            const since = (days: ReadonlyArray<string>, from: string) =>
              days.filter((d) => d >= from && d <= day).length
            const distinct = (from: string) =>
              new Set(active.filter((entry) => entry.day >= from && entry.day <= day).map((entry) => entry.userId)).size
            const messageDays = messages.map((message) => message.day)
            const series = MoscowDay.ending(day, 30)
            const perGuild = (from: string) => {
              const counts = new Map<string, number>()
              for (const message of messages) {
                if (message.day >= from) counts.set(message.guildId, (counts.get(message.guildId) ?? 0) + 1)
              }
              return counts
            }
            const weekGuilds = perGuild(weekStart)
            const top = [...weekGuilds]
              .sort(([a, x], [b, y]) => y - x || (BigInt(a) < BigInt(b) ? -1 : 1))
              .map(([id, count]) => ({
                id,
                name: guilds.find((g) => g.id === id)?.name,
                messages: count,
                members: 1
              }))

            expect(body).toEqual({
              at: DateTime.formatIso(yield* now),
              users: {
                total: registered.length,
                new_day: since(registered, day),
                new_week: since(registered, weekStart),
                new_month: since(registered, monthStart),
                with_email: withEmail,
                deleted: 0
              },
              online: { now: 0, peak_day: 0 },
              active: { day: distinct(day), week: distinct(weekStart), month: distinct(monthStart) },
              messages: { day: since(messageDays, day), week: since(messageDays, weekStart), dm_day: 0 },
              voice: { now: 0, streaming_now: 0, minutes_day: 0, stream_minutes_day: 0, call_minutes_day: 0 },
              guilds: {
                total: guilds.length,
                new_week: since(
                  guilds.map((g) => g.day),
                  weekStart
                ),
                active_week: weekGuilds.size,
                listed: 0,
                top
              },
              money: {
                plus_active: 0,
                boosts: 0,
                paid_month_rub: 0,
                referrals_qualified: 0,
                referrals_week: 0,
                sms_balance: null
              },
              funnel: {
                started: since(started, monthStart),
                confirmed: since(registered, monthStart),
                recover_started: since(recoveries, monthStart)
              },
              push_users: 0,
              series: {
                days: series,
                new_users: series.map((d) => registered.filter((r) => r === d).length),
                messages: series.map((d) => messageDays.filter((m) => m === d).length),
                active: series.map((d) => new Set(active.filter((a) => a.day === d).map((a) => a.userId)).size),
                peak_online: series.map(() => 0)
              }
            })
            // The seeded shape, so the comparison above cannot pass on empty data.
            expect(body.series.messages[series.indexOf(dayA)]).toBe(6)
            expect(body.active.month).toBe(4)
            if (weekLater) {
              expect(body.series.messages.filter((n) => n > 0)).toHaveLength(3)
              expect(body.series.messages.at(-1)).toBe(4)
              expect(body.series.messages[series.indexOf("2026-01-02")]).toBe(2)
              expect(body.messages).toEqual({ day: 4, week: 4, dm_day: 0 })
              expect(body.users).toMatchObject({ total: 4, new_day: 0, new_week: 0, new_month: 4, with_email: 1 })
              expect(body.guilds).toMatchObject({ total: 3, new_week: 1, active_week: 1 })
            } else {
              expect(body.series.messages.at(-1)).toBe(6)
              expect(body.messages).toEqual({ day: 6, week: 12, dm_day: 0 })
              expect(body.users).toMatchObject({ total: 4, new_day: 1, new_week: 4, new_month: 4, with_email: 1 })
              expect(body.guilds).toMatchObject({ total: 3, new_week: 3, active_week: 3 })
            }
          }),
        // the host's clock crosses 21 hours (a week in memory): every periodic job ticks through it
        { timeout: 300_000 }
      )
    })
  })
}

interface Stats {
  readonly series: { readonly messages: ReadonlyArray<number> }
  readonly messages: unknown
  readonly users: unknown
  readonly guilds: unknown
  readonly active: { readonly month: number }
}
