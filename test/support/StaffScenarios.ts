/**
 * The staff tools through HTTP, on the repositories the caller gives (memory by default;
 * PostgreSQL in adapters/postgres/test/StaffRoutes.test.ts): the audit log of staff actions,
 * finding an account by id or phone, the staff-edited disallowed words, and the catalogue check
 * (the durable job hiding listed guilds that no longer meet the conditions, and listing them again)
 * driven by the host's test clock, and an account's Plus and boost slots as the lookup shows them. Every staff route answers non-staff 403 and no token 401.
 */
import { describe, expect, layer } from "@effect/vitest"
import { DiscoveryRepo } from "@veche/discovery"
import { Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import { login, PASSWORD, type Registered, register, send } from "./Accounts.ts"
import { listedGuild } from "./Catalogue.ts"
import { accept, createGuild, inviteTo } from "./Guilds.ts"

const API = "/api/v10"
/** Staff phones: one per test (a host lives per describe block, an account registers once). */
const STAFF_PHONES = ["+79674999991", "+79674999992", "+79674999993", "+79674999994"] as const
const MISSING_PERMISSIONS = { status: 403, body: { code: 50013, message: "Missing Permissions" } }

/** Status and body (null for an empty one: 204). */
const answer = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (text) => ({ status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) })
  )

const call = (method: string, path: string, body?: unknown, token?: string) =>
  Effect.flatMap(send(method, `${API}${path}`, body, token), answer)

interface Entry {
  readonly id: string
  readonly user_id: string
  readonly action: string
  readonly target_type: string
  readonly target_id: string | null
  readonly reason: string | null
  readonly details: Record<string, unknown>
  readonly created_at: string
}

/** Real time passing (the host's worker runs on its own fibers after the test clock moves). */
const pause = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

/**
 * `clockJumps: false` leaves out the part that moves the host's clock a month (the durable jobs'
 * rounds of that month on PostgreSQL take minutes); the store's side of a term's end is in the
 * BillingRepo contract.
 */
export const staffScenarios = (
  repositories?: () => Layer.Layer<TestHost.Repositories>,
  options: { readonly clockJumps?: boolean } = {}
) => {
  const host = TestHost.layer({
    rateLimits: { enabled: false },
    repositories: repositories?.(),
    staff: { phones: [...STAFF_PHONES] }
  }).pipe(
    Layer.provide(
      ConfigProvider.layer(
        ConfigProvider.fromEnvRecord({
          SERVICE_DISCOVERY_MIN_MEMBERS: "2",
          SERVICE_DISCOVERY_MIN_AGE_DAYS: "0",
          SERVICE_DISCOVERY_REQUIRE_OWNER_2FA: "false",
          SERVICE_DISCOVERY_CHECK_INTERVAL: "15 minutes"
        })
      )
    )
  )

  const paidHost = TestHost.layer({
    rateLimits: { enabled: false },
    repositories: repositories?.(),
    staff: { phones: [...STAFF_PHONES] }
  })

  let phone = 79674000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)

  const auditLog = (query: string, token: string) =>
    Effect.map(call("GET", `/moderation/audit-log${query}`, undefined, token), (answered) => {
      expect(answered.status).toBe(200)
      return (answered.body as { entries: ReadonlyArray<Entry> }).entries
    })

  describe("Staff: the audit log, finding users, disallowed words", () => {
    layer(host, { timeout: "120 seconds" })((it) => {
      it.effect("every staff route answers non-staff 403 and no token 401", () =>
        Effect.gen(function* () {
          const other = yield* user("staff_other")
          const routes: ReadonlyArray<readonly [string, string, unknown?]> = [
            ["GET", "/moderation/audit-log"],
            ["GET", "/moderation/stats"],
            ["GET", `/moderation/users?id=${other.user_id}`],
            ["GET", "/moderation/discovery/words"],
            ["PUT", "/moderation/discovery/words", { words: ["casino"] }],
            ["GET", "/moderation/discovery"],
            ["PATCH", "/moderation/discovery/1234567890123456789", { state: "listed" }],
            ["PUT", `/moderation/users/${other.user_id}/block`, { reason: "spam" }],
            ["DELETE", `/moderation/users/${other.user_id}/block`],
            ["PUT", `/moderation/users/${other.user_id}/restriction`, { reason: "spam" }],
            ["DELETE", `/moderation/users/${other.user_id}/restriction`]
          ]
          for (const [method, path, body] of routes) {
            expect(yield* call(method, path, body, other.access_token)).toEqual(MISSING_PERMISSIONS)
            expect((yield* call(method, path, body)).status).toBe(401)
          }
        })
      )

      it.effect("blocks, restrictions, catalogue states and words are logged: who, what, when, target, reason", () =>
        Effect.gen(function* () {
          const staff = yield* register(STAFF_PHONES[0], "staff_auditor")
          const target = yield* user("staff_target")
          const owner = yield* user("staff_owner")
          const member = yield* user("staff_member")
          const guild = yield* listedGuild(owner, member, "Audited Guild")
          const token = staff.access_token
          const userPath = `/moderation/users/${target.user_id}`
          expect((yield* call("PUT", `${userPath}/block`, { reason: "Spam links" }, token)).status).toBe(200)
          expect((yield* call("DELETE", `${userPath}/block`, undefined, token)).status).toBe(204)
          // lifting what is not there changes nothing and logs nothing
          expect((yield* call("DELETE", `${userPath}/block`, undefined, token)).status).toBe(204)
          expect((yield* call("PUT", `${userPath}/restriction`, { reason: "Mass invites" }, token)).status).toBe(200)
          expect(
            (yield* call("PATCH", `/moderation/discovery/${guild.id}`, { state: "removed", reason: "Scam" }, token))
              .status
          ).toBe(204)
          expect((yield* call("PUT", "/moderation/discovery/words", { words: ["Казино"] }, token)).status).toBe(200)

          const entries = yield* auditLog("", token)
          expect(entries.map((entry) => entry.action)).toEqual([
            "discovery.words",
            "discovery.state",
            "user.restrict",
            "user.unblock",
            "user.block"
          ])
          for (const entry of entries) {
            expect(entry.user_id).toBe(staff.user_id)
            expect(Number.isNaN(Date.parse(entry.created_at))).toBe(false)
          }
          expect(entries[0]).toMatchObject({
            target_type: "catalogue",
            target_id: null,
            details: { added: ["казино"], removed: [] }
          })
          expect(entries[1]).toMatchObject({
            target_type: "guild",
            target_id: guild.id,
            reason: "Scam",
            details: { state: "removed", previous: "listed" }
          })
          expect(entries[4]).toMatchObject({
            target_type: "user",
            target_id: target.user_id,
            reason: "Spam links",
            details: { until: null }
          })

          // paged by id, filtered by action and by target
          const [first, second] = yield* auditLog("?limit=2", token)
          expect([first?.action, second?.action]).toEqual(["discovery.words", "discovery.state"])
          const older = yield* auditLog(`?limit=2&before=${second?.id}`, token)
          expect(older.map((entry) => entry.action)).toEqual(["user.restrict", "user.unblock"])
          expect((yield* auditLog("?action=user.block", token)).map((entry) => entry.id)).toEqual([entries[4]?.id])
          expect((yield* auditLog(`?target=${target.user_id}`, token)).map((entry) => entry.action)).toEqual([
            "user.restrict",
            "user.unblock",
            "user.block"
          ])
          expect(yield* auditLog(`?target=${guild.id}&action=user.block`, token)).toEqual([])

          for (const query of [
            "?limit=0",
            "?limit=101",
            "?limit=x",
            "?before=abc",
            "?before=99999999999999999999",
            "?target=-1",
            "?action=Not%20An%20Action",
            `?action=${"a".repeat(80)}`
          ])
            expect(yield* call("GET", `/moderation/audit-log${query}`, undefined, token)).toMatchObject({
              status: 400,
              body: { code: 50035 }
            })
        })
      )

      it.effect("staff find an account by id or by phone, with its sanctions", () =>
        Effect.gen(function* () {
          const token = (yield* register(STAFF_PHONES[1], "staff_finder")).access_token
          const target = yield* user("staff_found")
          const byId = yield* call("GET", `/moderation/users?id=${target.user_id}`, undefined, token)
          expect(byId).toEqual({
            status: 200,
            body: {
              user: {
                id: target.user_id,
                username: expect.stringMatching(/^staff_found_/),
                global_name: null,
                avatar: null,
                bot: false
              },
              phone: `+${phone}`,
              created_at: expect.any(String),
              block: null,
              restriction: null,
              billing: { plus_active: false, premium_until: null, boosts_total: 0, boosts_free: 0 }
            }
          })
          expect(
            (yield* call("PUT", `/moderation/users/${target.user_id}/block`, { reason: "spam" }, token)).status
          ).toBe(200)
          // any accepted spelling of the phone
          const spelled = `8 (${String(phone).slice(1, 4)}) ${String(phone).slice(4, 7)}-${String(phone).slice(7, 9)}-${String(phone).slice(9)}`
          const byPhone = yield* call("GET", `/moderation/users?phone=${encodeURIComponent(spelled)}`, undefined, token)
          expect(byPhone.status).toBe(200)
          expect(byPhone.body).toMatchObject({
            user: { id: target.user_id },
            block: { user_id: target.user_id, reason: "spam", until: null }
          })
          expect(yield* call("GET", "/moderation/users?id=1234567890123456789", undefined, token)).toEqual({
            status: 404,
            body: { code: 10013, message: "Unknown User" }
          })
          expect((yield* call("GET", "/moderation/users?phone=%2B79990000000", undefined, token)).status).toBe(404)
          for (const query of ["", `?id=${target.user_id}&phone=%2B79990000000`, "?phone=12345", "?id=abc"])
            expect(yield* call("GET", `/moderation/users${query}`, undefined, token)).toMatchObject({
              status: 400,
              body: { code: 50035 }
            })
        })
      )

      it.effect("staff edit the disallowed words: normalised, checked against guilds, bounded", () =>
        Effect.gen(function* () {
          const token = (yield* register(STAFF_PHONES[2], "staff_words")).access_token
          const put = (body: unknown) => call("PUT", "/moderation/discovery/words", body, token)
          expect(yield* put({ words: ["  Free   MONEY ", "ёлка", "free money", "Casino"] })).toEqual({
            status: 200,
            body: { words: ["casino", "free money", "елка"] }
          })
          expect(yield* call("GET", "/moderation/discovery/words", undefined, token)).toEqual({
            status: 200,
            body: { words: ["casino", "free money", "елка"] }
          })
          // an owner's guild with a word now staff disallow: the condition names it
          const owner = yield* user("staff_words_owner")
          const guild = yield* createGuild(owner.access_token, "Casino Royale")
          const settings = yield* call("GET", `/guilds/${guild.id}/discovery`, undefined, owner.access_token)
          expect(settings.body).toMatchObject({ requirements: { nsfw_properties: { name: ["casino"] } } })
          expect(yield* put({ words: [] })).toEqual({ status: 200, body: { words: [] } })
          const cleared = yield* call("GET", `/guilds/${guild.id}/discovery`, undefined, owner.access_token)
          expect(cleared.body).toMatchObject({ requirements: { nsfw_properties: {} } })
          for (const body of [
            {},
            { words: "casino" },
            { words: [""] },
            { words: ["x".repeat(51)] },
            { words: Array.from({ length: 501 }, (_, i) => `w${i}`) },
            { words: [1] }
          ])
            expect(yield* put(body)).toMatchObject({ status: 400, body: { code: 50035 } })
        })
      )
    })
  })

  // Its own host: the month the clock moves on would run the catalogue check of the block above
  // every 15 minutes of it.
  describe("Staff: an account's Plus and boost slots in the lookup (the test clock moves a month on)", () => {
    layer(paidHost, { timeout: "120 seconds" })((it) => {
      it.effect(
        "the lookup shows the account's Plus and boost slots: granted, applied, and ended",
        () =>
          Effect.gen(function* () {
            const staffPhone = STAFF_PHONES[3]
            const token = (yield* register(staffPhone, "staff_billing")).access_token
            const target = yield* user("staff_paid")
            const look = (bearer: string) =>
              Effect.map(
                call("GET", `/moderation/users?id=${target.user_id}`, undefined, bearer),
                (answered) => answered.body as { billing: Record<string, unknown> }
              )
            const grants = `/moderation/billing/users/${target.user_id}`
            const plus = yield* call("POST", `${grants}/plus`, { months: 1 }, token)
            expect(plus.status).toBe(200)
            const until = (plus.body as { premium_until: string }).premium_until
            expect((yield* call("POST", `${grants}/boosts`, { count: 3, months: 1 }, token)).status).toBe(200)
            expect((yield* look(token)).billing).toEqual({
              plus_active: true,
              premium_until: until,
              boosts_total: 3,
              boosts_free: 3
            })
            // one slot applied to the account's own guild: still counted, no longer free
            const guild = yield* createGuild(target.access_token, "Boosted by staff")
            expect((yield* call("POST", `/guilds/${guild.id}/boosts`, {}, target.access_token)).status).toBe(200)
            expect((yield* look(token)).billing).toMatchObject({ boosts_total: 3, boosts_free: 2 })
            if (options.clockJumps === false) return
            // past both terms: Plus ended (its end still shown), no slot in force
            const testHost = yield* TestHost.TestHost
            yield* testHost.adjustClock("32 days")
            const again = yield* answer(yield* login({ login: staffPhone, password: PASSWORD }))
            expect(again.status).toBe(200)
            expect((yield* look((again.body as { access_token: string }).access_token)).billing).toEqual({
              plus_active: false,
              premium_until: until,
              boosts_total: 0,
              boosts_free: 0
            })
          }),
        { timeout: 180_000 }
      )
    })
  })

  describe("Staff: the catalogue check (a durable job on the test clock)", () => {
    layer(host, { timeout: "120 seconds" })((it) => {
      it.effect("a listed guild that stops meeting the conditions is hidden with the reason, then listed again", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const token = (yield* register(STAFF_PHONES[0], "check_staff")).access_token
          const owner = yield* user("check_owner")
          const member = yield* user("check_member")
          const guild = yield* listedGuild(owner, member, "Lucky Casino Club")
          const hiddenByStaff = yield* listedGuild(owner, member, "Staff Hidden Casino")
          expect(
            (yield* call("PATCH", `/moderation/discovery/${hiddenByStaff.id}`, { state: "auto_hidden" }, token)).status
          ).toBe(204)
          const settings = (guildId: string) =>
            Effect.map(
              call("GET", `/guilds/${guildId}/discovery`, undefined, owner.access_token),
              (answered) => answered.body as { state: string; reason: string | null }
            )
          const searched = Effect.map(call("GET", "/discovery/guilds?q=casino"), (answered) =>
            (answered.body as { guilds: ReadonlyArray<{ id: string }> }).guilds.map((g) => g.id)
          )
          /** Moves the clock a round on, then waits (real time) until the guild's state is `state`. */
          const roundUntil = (guildId: string, state: string) =>
            Effect.gen(function* () {
              yield* testHost.adjustClock("15 minutes")
              for (let attempt = 0; attempt < 250; attempt++) {
                const seen = yield* settings(guildId)
                if (seen.state === state) return seen
                yield* pause
              }
              return yield* settings(guildId)
            })
          expect(yield* searched).toContain(guild.id)

          // staff disallow a word in its name: the next round hides it, the owner reads why
          expect((yield* call("PUT", "/moderation/discovery/words", { words: ["casino"] }, token)).status).toBe(200)
          const hidden = yield* roundUntil(guild.id, "auto_hidden")
          expect(hidden.state).toBe("auto_hidden")
          expect(hidden.reason).toContain("no longer meets the catalogue's conditions")
          expect(hidden.reason).toContain("Disallowed words in name: casino.")
          expect(yield* searched).not.toContain(guild.id)

          // a member leaves as well: the reason follows what is unmet now
          expect(
            (yield* send("DELETE", `${API}/users/@me/guilds/${guild.id}`, undefined, member.access_token)).status
          ).toBe(204)
          expect((yield* call("PUT", "/moderation/discovery/words", { words: [] }, token)).status).toBe(200)
          yield* testHost.adjustClock("15 minutes")
          let still = yield* settings(guild.id)
          for (let attempt = 0; attempt < 250 && (still.reason ?? "").includes("casino"); attempt++) {
            yield* pause
            still = yield* settings(guild.id)
          }
          expect(still.state).toBe("auto_hidden")
          expect(still.reason).toContain("at least 2 members")
          expect(still.reason).not.toContain("casino")

          // conditions met again: listed again, the reason gone; the staff-hidden guild stays hidden
          const code = yield* inviteTo(owner.access_token, guild.system_channel_id)
          expect((yield* accept(member.access_token, code)).status).toBe(200)
          const back = yield* roundUntil(guild.id, "listed")
          expect(back).toMatchObject({ state: "listed", reason: null })
          expect(yield* searched).toContain(guild.id)
          expect((yield* settings(hiddenByStaff.id)).state).toBe("auto_hidden")

          // removed by staff: the check never lists it again
          expect(
            (yield* call("PATCH", `/moderation/discovery/${guild.id}`, { state: "removed", reason: "Scam" }, token))
              .status
          ).toBe(204)
          // (an hour on the test clock has ended the sessions: read the store)
          yield* testHost.adjustClock("15 minutes")
          for (let attempt = 0; attempt < 10; attempt++) yield* pause
          const stored = yield* testHost.run(
            Effect.flatMap(Effect.service(DiscoveryRepo.DiscoveryRepo), (repo) =>
              repo.find(Snowflake.Snowflake.make(guild.id))
            )
          )
          expect(Option.getOrThrow(stored)).toMatchObject({ state: "removed", reason: "Scam", hiddenFor: null })
        })
      )
    })
  })
}
