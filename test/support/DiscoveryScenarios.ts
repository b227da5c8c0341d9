/**
 * The public catalogue through HTTP, on the repositories the caller gives (memory by default;
 * PostgreSQL in adapters/postgres/test/DiscoveryRoutes.test.ts, where publications really race and
 * search runs on full text and trigrams). Conditions are lowered by configuration so a guild can
 * meet them with a few members; each condition is still checked.
 */
import { describe, expect, layer } from "@effect/vitest"
import { OtplibTotpCodes } from "@veche/otplib"
import { DataExports } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { Clock, ConfigProvider, Effect, Layer } from "effect"
import { json, PASSWORD, post, type Registered, register, send } from "./Accounts.ts"
import { DESCRIPTION, readyGuild } from "./Catalogue.ts"
import { type CreatedGuild, createGuild } from "./Guilds.ts"
import { unzip } from "./Unzip.ts"

const API = "/api/v10"

interface Settings {
  readonly state: string
  readonly slug: string | null
  readonly reason: string | null
  readonly requirements: Record<string, unknown>
  readonly unmet: ReadonlyArray<{ readonly condition: string; readonly message: string }>
}

interface Card {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly approximate_member_count: number
}

/** Status and body (null for an empty one: 204). */
const answer = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (text) => ({ status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) })
  )

const STAFF_PHONE = "+79673999999"
const MISSING_PERMISSIONS = { status: 403, body: { code: 50013, message: "Missing Permissions" } }

const UNKNOWN_GUILD = { status: 404, body: { code: 10004, message: "Unknown Guild" } }

export const discoveryScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = (env: Record<string, string>) =>
    TestHost.layer({
      rateLimits: { enabled: false },
      repositories: repositories?.(),
      staff: { phones: [STAFF_PHONE] }
    }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env))))

  let phone = 79673000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)

  const publish = (token: string, guildId: string, body: Record<string, unknown> = {}) =>
    send("PUT", `${API}/guilds/${guildId}/discovery`, { category: "gaming", description: DESCRIPTION, ...body }, token)

  const search = (query: string) =>
    Effect.flatMap(send("GET", `${API}/discovery/guilds${query}`), (response) =>
      Effect.map(json(response), (body) => {
        expect(response.status).toBe(200)
        return (body as { guilds: ReadonlyArray<Card> }).guilds
      })
    )

  const lowered = {
    SERVICE_DISCOVERY_MIN_MEMBERS: "2",
    SERVICE_DISCOVERY_MIN_AGE_DAYS: "0",
    SERVICE_DISCOVERY_REQUIRE_OWNER_2FA: "false",
    SERVICE_DISCOVERY_DISALLOWED_WORDS: "casino, free money",
    SERVICE_DISCOVERY_AUTO_HIDE_REPORTS: "2"
  }

  describe("Discovery: publication, previews and the owner's settings", () => {
    layer(host(lowered), { timeout: "120 seconds" })((it) => {
      it.effect("categories and every threshold as integers", () =>
        Effect.gen(function* () {
          const { status, body } = yield* answer(yield* send("GET", `${API}/discovery/categories`))
          expect(status).toBe(200)
          const answered = body as { categories: ReadonlyArray<unknown>; limits: Record<string, unknown> }
          expect(answered.categories).toContainEqual({ id: "gaming", name: "Gaming" })
          expect(answered.limits).toMatchObject({
            min_members: 2,
            min_age_days: 0,
            min_verification_level: 1,
            owner_2fa_required: 0,
            max_public_per_owner: 3,
            description_min: 40,
            description_max: 300,
            max_tags: 3,
            auto_hide_reports: 2
          })
          for (const value of Object.values(answered.limits)) expect(Number.isInteger(value)).toBe(true)
        })
      )

      it.effect("an unready guild: every unmet condition in the settings and in the 400, nothing listed", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_unready")
          const other = yield* user("disc_stranger")
          const guild = yield* createGuild(owner.access_token, "Lonely Casino")
          const path = `${API}/guilds/${guild.id}/discovery`
          const settings = (yield* json(yield* send("GET", path, undefined, owner.access_token))) as Settings
          expect(settings).toMatchObject({
            state: "not_listed",
            slug: null,
            requirements: {
              size: false,
              age: true,
              verification_level: false,
              valid_rules_channel: false,
              protected: true,
              safe_environment: true,
              nsfw_properties: { name: ["casino"] },
              sufficient: false
            },
            minimum_size: 2,
            minimum_age: 0
          })
          const refused = yield* answer(yield* publish(owner.access_token, guild.id))
          expect(refused.status).toBe(400)
          expect(refused.body).toMatchObject({ code: 50035 })
          const errors = (refused.body as { errors: Record<string, unknown> }).errors
          expect(Object.keys(errors).sort()).toEqual(
            ["nsfw_properties", "size", "valid_rules_channel", "verification_level"].sort()
          )
          expect(errors.size).toEqual({
            _errors: [
              { code: "DISCOVERY_REQUIREMENT_UNMET", message: "The server needs at least 2 members (it has 1)." }
            ]
          })
          // not the owner: 403; an unknown guild: 404
          expect(yield* answer(yield* send("GET", path, undefined, other.access_token))).toEqual({
            status: 403,
            body: { code: 50001, message: "Missing Access" }
          })
          expect((yield* publish(other.access_token, guild.id)).status).toBe(403)
          expect((yield* send("DELETE", path, undefined, other.access_token)).status).toBe(403)
          expect(
            yield* answer(
              yield* send("GET", `${API}/guilds/1234567890123456789/discovery`, undefined, owner.access_token)
            )
          ).toEqual(UNKNOWN_GUILD)
          expect(yield* answer(yield* send("GET", `${API}/guilds/${guild.id}/preview`))).toEqual(UNKNOWN_GUILD)
          expect((yield* send("GET", path)).status).toBe(401)
        })
      )

      it.effect("the card's fields: description 40-300, at most 3 tags, a known category", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_fields")
          const member = yield* user("disc_fields_m")
          const guild = yield* readyGuild(owner, [member], "Fields Guild")
          for (const [body, field] of [
            [{ description: "too short" }, "description"],
            [{ description: "x".repeat(301) }, "description"],
            [{ tags: ["a", "b", "c", "d"] }, "tags"],
            [{ tags: ["x".repeat(31)] }, "tags"],
            [{ category: "no-such-category" }, "category"]
          ] as const) {
            const refused = yield* answer(yield* publish(owner.access_token, guild.id, body))
            expect(refused.status).toBe(400)
            expect(Object.keys((refused.body as { errors: object }).errors)).toEqual([field])
          }
          // disallowed words in the card itself
          const worded = yield* answer(
            yield* publish(owner.access_token, guild.id, { description: `${DESCRIPTION} Free money inside!` })
          )
          expect(worded.status).toBe(400)
          expect(
            (worded.body as { errors: { nsfw_properties: { _errors: Array<{ message: string }> } } }).errors
          ).toMatchObject({
            nsfw_properties: { _errors: [{ message: "Disallowed words in description: free money." }] }
          })
        })
      )

      it.effect("publishes, previews by slug and id, unpublishes and publishes again under the same slug", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_pub")
          const member = yield* user("disc_pub_m")
          const guild = yield* readyGuild(owner, [member], "Шахматный клуб")
          const published = yield* answer(
            yield* publish(owner.access_token, guild.id, { tags: ["Chess", "chess", "шахматы"] })
          )
          expect(published.status).toBe(200)
          const settings = published.body as Settings
          expect(settings).toMatchObject({
            state: "listed",
            slug: "shakhmatnyy-klub",
            category: { id: "gaming", name: "Gaming" },
            tags: ["chess", "шахматы"],
            description: DESCRIPTION,
            reason: null,
            unmet: [],
            requirements: { sufficient: true }
          })
          const preview = {
            id: guild.id,
            name: "Шахматный клуб",
            icon: null,
            splash: null,
            discovery_splash: null,
            emojis: [],
            features: ["DISCOVERABLE"],
            approximate_member_count: 2,
            approximate_presence_count: 0,
            description: DESCRIPTION,
            stickers: []
          }
          expect(yield* answer(yield* send("GET", `${API}/discovery/guilds/shakhmatnyy-klub`))).toEqual({
            status: 200,
            body: preview
          })
          expect(yield* answer(yield* send("GET", `${API}/guilds/${guild.id}/preview`))).toEqual({
            status: 200,
            body: preview
          })
          expect(yield* answer(yield* send("GET", `${API}/discovery/guilds/no-such-slug`))).toEqual(UNKNOWN_GUILD)
          expect(yield* answer(yield* send("GET", `${API}/discovery/guilds/${"%00"}`))).toMatchObject({ status: 400 })

          // another guild of the same name gets another slug
          const twin = yield* readyGuild(owner, [member], "Шахматный клуб")
          const twinSlug = ((yield* json(yield* publish(owner.access_token, twin.id))) as Settings).slug
          expect(twinSlug).toBe(`shakhmatnyy-klub-${twin.id}`)

          const path = `${API}/guilds/${guild.id}/discovery`
          expect((yield* send("DELETE", path, undefined, owner.access_token)).status).toBe(204)
          expect(yield* answer(yield* send("GET", `${API}/discovery/guilds/shakhmatnyy-klub`))).toEqual(UNKNOWN_GUILD)
          expect(yield* answer(yield* send("GET", `${API}/guilds/${guild.id}/preview`))).toEqual(UNKNOWN_GUILD)
          expect(((yield* json(yield* send("GET", path, undefined, owner.access_token))) as Settings).state).toBe(
            "not_listed"
          )
          // the slug stays with the guild
          expect(((yield* json(yield* publish(owner.access_token, guild.id))) as Settings).slug).toBe(
            "shakhmatnyy-klub"
          )
        })
      )

      it.effect("at most three public servers per owner: the fourth is 409 until one is unpublished", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_three")
          const member = yield* user("disc_three_m")
          const guilds: Array<CreatedGuild> = []
          for (let i = 0; i < 4; i++) guilds.push(yield* readyGuild(owner, [member], `Three ${i}`))
          for (const guild of guilds.slice(0, 3))
            expect((yield* publish(owner.access_token, guild.id)).status).toBe(200)
          const fourth = guilds[3]?.id ?? ""
          expect(yield* answer(yield* publish(owner.access_token, fourth))).toEqual({
            status: 409,
            body: { code: 0, message: "409: Conflict" }
          })
          // republishing a listed one (a card change) is not a fourth
          expect((yield* publish(owner.access_token, guilds[0]?.id ?? "", { category: "music" })).status).toBe(200)
          expect(
            (yield* send("DELETE", `${API}/guilds/${guilds[0]?.id}/discovery`, undefined, owner.access_token)).status
          ).toBe(204)
          expect((yield* publish(owner.access_token, fourth)).status).toBe(200)
        })
      )

      it.effect("five concurrent publications by one owner: exactly three listed, two 409", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_race")
          const member = yield* user("disc_race_m")
          const guilds: Array<CreatedGuild> = []
          for (let i = 0; i < 5; i++) guilds.push(yield* readyGuild(owner, [member], `Race ${i}`))
          const statuses = yield* Effect.forEach(
            guilds,
            (guild) => Effect.map(publish(owner.access_token, guild.id), (r) => r.status),
            {
              concurrency: "unbounded"
            }
          )
          expect([...statuses].sort()).toEqual([200, 200, 200, 409, 409])
          const listed = yield* search("?q=race&limit=48")
          expect(listed.filter((card) => guilds.some((guild) => guild.id === card.id))).toHaveLength(3)
        })
      )
    })
  })

  describe("Discovery: search, joining and reports", () => {
    layer(host(lowered), { timeout: "120 seconds" })((it) => {
      it.effect("search in Russian and English, with typos, by category, ordered by members; paging bounds", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_search")
          const owner2 = yield* user("disc_search2")
          const a = yield* user("disc_sa")
          const b = yield* user("disc_sb")
          const chess = yield* readyGuild(owner, [a], "Шахматы онлайн")
          expect(
            (yield* publish(owner.access_token, chess.id, {
              category: "education",
              description: "Играем в шахматы каждый вечер, разбираем партии и учимся вместе с тренером.",
              tags: ["турниры"]
            })).status
          ).toBe(200)
          const mine = yield* readyGuild(owner, [a, b], "Minecraft Builders")
          expect(
            (yield* publish(owner.access_token, mine.id, {
              description: "We build huge castles and cities together in survival and creative modes.",
              tags: ["redstone"]
            })).status
          ).toBe(200)
          const small = yield* readyGuild(owner2, [a], "Minecraft Mods")
          expect(
            (yield* publish(owner2.access_token, small.id, {
              description: "Mods for minecraft: we write, test and share them with the community."
            })).status
          ).toBe(200)
          const ids = (cards: ReadonlyArray<Card>) => cards.map((card) => card.id)

          // Russian: another form of the word, and a typo
          expect(ids(yield* search(`?q=${encodeURIComponent("шахматах")}`))).toEqual([chess.id])
          expect(ids(yield* search(`?q=${encodeURIComponent("шахмты")}`))).toEqual([chess.id])
          expect(ids(yield* search(`?q=${encodeURIComponent("турнир")}`))).toEqual([chess.id])
          // English: a typo; more members first
          expect(ids(yield* search("?q=minecarft"))).toEqual([mine.id, small.id])
          expect(ids(yield* search("?q=castles"))).toEqual([mine.id])
          expect(ids(yield* search("?q=REDSTONE"))).toEqual([mine.id])
          expect(ids(yield* search("?q=zzzzqqq"))).toEqual([])
          // category; everything (most members first); paging
          expect(ids(yield* search("?category=education"))).toEqual([chess.id])
          expect(ids(yield* search("?q=minecraft&category=education"))).toEqual([])
          const all = yield* search("")
          expect(ids(all)).toEqual([mine.id, chess.id, small.id])
          expect(all[0]).toMatchObject({
            name: "Minecraft Builders",
            category: { id: "gaming", name: "Gaming" },
            tags: ["redstone"],
            approximate_member_count: 3,
            approximate_presence_count: 0,
            premium_tier: 0,
            features: ["DISCOVERABLE"]
          })
          expect(ids(yield* search("?limit=1&offset=1"))).toEqual([chess.id])
          expect(ids(yield* search("?offset=2999"))).toEqual([])
          for (const query of [
            "?limit=0",
            "?limit=49",
            "?offset=-1",
            "?offset=3000",
            "?limit=x",
            `?q=${"a".repeat(101)}`
          ]) {
            const refused = yield* answer(yield* send("GET", `${API}/discovery/guilds${query}`))
            expect(refused).toMatchObject({ status: 400, body: { code: 50035 } })
          }
          // a renamed guild is found under its new name
          expect(
            (yield* send("PATCH", `${API}/guilds/${small.id}`, { name: "Origami Corner" }, owner2.access_token)).status
          ).toBe(200)
          expect(ids(yield* search("?q=origami"))).toEqual([])
          expect(ids(yield* search("?category=gaming")).includes(small.id)).toBe(true)
          expect(ids(yield* search("?q=origami"))).toEqual([small.id])
        })
      )

      it.effect("joining from the catalogue: GUILD_CREATE's guild; banned 403; not listed 404; idempotent", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_join")
          const member = yield* user("disc_join_m")
          const joiner = yield* user("disc_joiner")
          const banned = yield* user("disc_banned")
          const guild = yield* readyGuild(owner, [member, banned], "Join Me")
          const join = (token: string, guildId = guild.id) =>
            Effect.flatMap(post(`${API}/discovery/guilds/${guildId}/join`, undefined, token), answer)
          // not in the catalogue yet
          expect(yield* join(joiner.access_token)).toEqual(UNKNOWN_GUILD)
          expect((yield* publish(owner.access_token, guild.id)).status).toBe(200)
          const joined = yield* join(joiner.access_token)
          expect(joined.status).toBe(200)
          expect(joined.body).toMatchObject({ id: guild.id, name: "Join Me", member_count: 4 })
          expect((joined.body as { channels: ReadonlyArray<unknown> }).channels.length).toBeGreaterThan(0)
          // joining again changes nothing
          expect(yield* join(joiner.access_token)).toMatchObject({ status: 200, body: { member_count: 4 } })
          // a banned user
          expect(
            (yield* send("PUT", `${API}/guilds/${guild.id}/bans/${banned.user_id}`, {}, owner.access_token)).status
          ).toBe(204)
          expect(yield* join(banned.access_token)).toEqual({
            status: 403,
            body: { code: 40007, message: "The user is banned from this guild" }
          })
          expect(yield* join(joiner.access_token, "1234567890123456789")).toEqual(UNKNOWN_GUILD)
          expect((yield* post(`${API}/discovery/guilds/${guild.id}/join`, undefined)).status).toBe(401)
        })
      )

      it.effect("reports: one per user counted; two open reports hide the guild, the owner sees why", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_rep")
          const member = yield* user("disc_rep_m")
          const first = yield* user("disc_rep_a")
          const second = yield* user("disc_rep_b")
          const guild = yield* readyGuild(owner, [member], "Reported Place")
          const report = (token: string, body: unknown = { reason: "spam" }, guildId = guild.id) =>
            Effect.flatMap(post(`${API}/discovery/guilds/${guildId}/report`, body, token), answer)
          expect(yield* report(first.access_token)).toEqual(UNKNOWN_GUILD)
          expect((yield* publish(owner.access_token, guild.id)).status).toBe(200)
          for (const body of [{}, { reason: "" }, { reason: "x".repeat(201) }])
            expect(yield* report(first.access_token, body)).toMatchObject({ status: 400, body: { code: 50035 } })
          expect((yield* report(first.access_token)).status).toBe(204)
          // the same user again: accepted, not counted a second time
          expect((yield* report(first.access_token)).status).toBe(204)
          expect(ids(yield* search("?q=reported"))).toEqual([guild.id])
          expect((yield* report(second.access_token)).status).toBe(204)
          expect(ids(yield* search("?q=reported"))).toEqual([])
          expect(yield* answer(yield* send("GET", `${API}/guilds/${guild.id}/preview`))).toEqual(UNKNOWN_GUILD)
          const settings = (yield* json(
            yield* send("GET", `${API}/guilds/${guild.id}/discovery`, undefined, owner.access_token)
          )) as Settings
          expect(settings.state).toBe("auto_hidden")
          expect(settings.reason).toContain("reported")
          // the owner's card change leaves it hidden; a hidden guild cannot be reported or joined
          expect(((yield* json(yield* publish(owner.access_token, guild.id))) as Settings).state).toBe("auto_hidden")
          expect(yield* report(member.access_token)).toEqual(UNKNOWN_GUILD)

          // the reporter's data export lists their report
          const testHost = yield* TestHost.TestHost
          expect((yield* post(`${API}/users/@me/export`, undefined, first.access_token)).status).toBe(200)
          yield* testHost.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
          const ready = (yield* json(yield* send("GET", `${API}/users/@me/export`, undefined, first.access_token))) as {
            url: string
          }
          const download = yield* testHost.fetch(ready.url)
          const files = unzip(new Uint8Array(yield* Effect.promise(() => download.arrayBuffer())))
          expect(JSON.parse(files["catalogue-reports.json"] ?? "null")).toEqual([
            { guild_id: guild.id, reason: "spam", created_at: expect.any(String) }
          ])
        })
      )
    })
  })

  describe("Discovery: the staff queue and the state machine", () => {
    layer(host(lowered), { timeout: "120 seconds" })((it) => {
      it.effect("staff see reported guilds, list, hide and remove them with a reason; others get 403", () =>
        Effect.gen(function* () {
          const staff = yield* register(STAFF_PHONE, "disc_staff")
          const owner = yield* user("disc_q_owner")
          const member = yield* user("disc_q_m")
          const reporters = [yield* user("disc_q_a"), yield* user("disc_q_b")]
          const guild = yield* readyGuild(owner, [member], "Queued Guild")
          expect((yield* publish(owner.access_token, guild.id)).status).toBe(200)
          const queue = (query: string, token = staff.access_token) =>
            Effect.flatMap(send("GET", `${API}/moderation/discovery${query}`, undefined, token), answer)
          const setState = (body: unknown, token = staff.access_token, guildId = guild.id) =>
            Effect.flatMap(send("PATCH", `${API}/moderation/discovery/${guildId}`, body, token), answer)
          const ownerSettings = Effect.flatMap(
            send("GET", `${API}/guilds/${guild.id}/discovery`, undefined, owner.access_token),
            json
          ) as Effect.Effect<Settings & { requirements: { safe_environment: boolean } }, never, TestHost.TestHost>

          // not staff: 403 on both routes
          expect(yield* queue("", owner.access_token)).toEqual(MISSING_PERMISSIONS)
          expect(yield* setState({ state: "removed" }, owner.access_token)).toEqual(MISSING_PERMISSIONS)
          expect((yield* send("GET", `${API}/moderation/discovery`)).status).toBe(401)

          for (const reporter of reporters)
            expect(
              (yield* post(`${API}/discovery/guilds/${guild.id}/report`, { reason: "spam" }, reporter.access_token))
                .status
            ).toBe(204)
          const hidden = yield* queue("?state=auto_hidden")
          expect(hidden.status).toBe(200)
          expect((hidden.body as { guilds: ReadonlyArray<unknown> }).guilds).toEqual([
            expect.objectContaining({ id: guild.id, state: "auto_hidden", reports: 2, slug: "queued-guild" })
          ])
          expect(
            ((yield* queue("?state=listed")).body as { guilds: ReadonlyArray<{ id: string }> }).guilds.map((g) => g.id)
          ).not.toContain(guild.id)

          // staff list it again: shown, reports closed
          expect(yield* setState({ state: "listed", reason: "Reviewed: fine." })).toEqual({ status: 204, body: null })
          expect(ids(yield* search("?q=queued"))).toEqual([guild.id])
          expect((yield* queue("?state=listed")).body).toMatchObject({
            guilds: expect.arrayContaining([
              expect.objectContaining({ id: guild.id, reports: 0, reason: "Reviewed: fine." })
            ])
          })

          // removed: the owner sees why, cannot publish or unpublish it back
          expect((yield* setState({ state: "removed", reason: "Scam links." })).status).toBe(204)
          expect(ids(yield* search("?q=queued"))).toEqual([])
          const removed = yield* ownerSettings
          expect(removed).toMatchObject({ state: "removed", reason: "Scam links." })
          expect(removed.requirements.safe_environment).toBe(false)
          const refused = yield* answer(yield* publish(owner.access_token, guild.id))
          expect(refused.status).toBe(400)
          expect(Object.keys((refused.body as { errors: object }).errors)).toEqual(["safe_environment"])
          expect(
            (yield* send("DELETE", `${API}/guilds/${guild.id}/discovery`, undefined, owner.access_token)).status
          ).toBe(204)
          expect((yield* ownerSettings).state).toBe("removed")

          // auto_hidden by staff, then listed: any state from any state
          expect((yield* setState({ state: "auto_hidden" })).status).toBe(204)
          expect((yield* ownerSettings).state).toBe("auto_hidden")
          expect((yield* setState({ state: "listed", reason: null })).status).toBe(204)
          expect(yield* ownerSettings).toMatchObject({ state: "listed", reason: null })

          // bad input
          expect(yield* setState({ state: "listed" }, staff.access_token, "1234567890123456789")).toEqual(UNKNOWN_GUILD)
          for (const body of [{ state: "gone" }, {}, { state: "listed", reason: "x".repeat(201) }])
            expect(yield* setState(body)).toMatchObject({ status: 400, body: { code: 50035 } })
          for (const query of ["?limit=0", "?limit=101", "?state=not_listed"])
            expect(yield* queue(query)).toMatchObject({ status: 400, body: { code: 50035 } })
        })
      )
    })
  })

  describe("Discovery: the default conditions (age, the owner's 2FA)", () => {
    layer(host({ SERVICE_DISCOVERY_MIN_MEMBERS: "1" }), { timeout: "60 seconds" })((it) => {
      it.effect("a new guild is too young and its owner needs 2FA; with 2FA only the age remains", () =>
        Effect.gen(function* () {
          const owner = yield* user("disc_defaults")
          const guild = yield* readyGuild(owner, [], "Young Guild")
          const path = `${API}/guilds/${guild.id}/discovery`
          const before = (yield* json(yield* send("GET", path, undefined, owner.access_token))) as Settings
          expect(before.requirements).toMatchObject({ size: true, age: false, protected: false, sufficient: false })
          expect(before.unmet.map((u) => u.condition).sort()).toEqual(["age", "protected"])
          const testHost = yield* TestHost.TestHost
          const now = yield* testHost.run(Clock.currentTimeMillis)
          const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
          const enabled = yield* post(
            `${API}/auth/mfa/totp`,
            { password: PASSWORD, secret, code: OtplibTotpCodes.codeAt(secret, now) },
            owner.access_token
          )
          expect(enabled.status).toBe(200)
          const refused = yield* answer(yield* publish(owner.access_token, guild.id))
          expect(refused.status).toBe(400)
          expect(Object.keys((refused.body as { errors: object }).errors)).toEqual(["age"])
          expect(
            (refused.body as { errors: { age: { _errors: Array<{ message: string }> } } }).errors.age._errors[0]
              ?.message
          ).toBe("The server must be at least 7 days old (it is 0).")
        })
      )
    })
  })
}

const ids = (cards: ReadonlyArray<Card>) => cards.map((card) => card.id)
