/**
 * What Plus unlocks beyond billing's own routes, through HTTP on the repositories the caller gives
 * (memory by default; PostgreSQL in adapters/postgres/test/PlusRoutes.test.ts, where joins at the
 * cap really race): the account's guild cap (100 free, 200 with Plus) on creating, accepting an
 * invitation and joining from the catalogue; the profile banner and the animated avatar; and
 * billing's part of a user's data export and erasure. Memberships by the hundred are seeded through
 * the repository (test/support/Plus.ts); the one that meets the cap always goes through HTTP.
 */
import { describe, expect, layer } from "@effect/vitest"
import { BillingRepo } from "@veche/billing"
import { Snowflake } from "@veche/platform"
import { AccountDeletion, DataExports, DeletionsRepo } from "@veche/privacy"
import { TestHost } from "@veche/test-host"
import { ConfigProvider, DateTime, Effect, Layer, Option } from "effect"
import { json, login, PASSWORD, post, type Registered, register, send } from "./Accounts.ts"
import { listedGuild } from "./Catalogue.ts"
import { animatedGif, gifFrames } from "./Gif.ts"
import { accept, createGuild, inviteTo } from "./Guilds.ts"
import { seedGuilds } from "./Plus.ts"
import { dataUri, png } from "./Png.ts"
import { unzip } from "./Unzip.ts"

const API = "/api/v10"
const STAFF_PHONE = "+79676999999"
const CAP_REACHED = { code: 30001, message: "Maximum number of guilds reached (100)" }

/** Status and body (null for an empty one). */
const answer = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (text) => ({ status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) })
  )

export const plusScenarios = (repositories?: () => Layer.Layer<TestHost.Repositories>) => {
  const host = () =>
    TestHost.layer({
      rateLimits: { enabled: false },
      repositories: repositories?.(),
      staff: { phones: [STAFF_PHONE] }
    }).pipe(
      Layer.provide(
        ConfigProvider.layer(
          ConfigProvider.fromEnvRecord({
            SERVICE_BILLING_JOBS_INTERVAL: "1000 days",
            // the catalogue's conditions lowered so a guild of two can be listed
            SERVICE_DISCOVERY_MIN_MEMBERS: "2",
            SERVICE_DISCOVERY_MIN_AGE_DAYS: "0",
            SERVICE_DISCOVERY_REQUIRE_OWNER_2FA: "false"
          })
        )
      )
    )

  let phone = 79676000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)
  // one staff account per host (each describe block has its own)
  const staffByHost = new WeakMap<object, Registered>()
  const staffAccount = Effect.gen(function* () {
    const testHost = yield* TestHost.TestHost
    const known = staffByHost.get(testHost)
    if (known !== undefined) return known
    const made = yield* register(STAFF_PHONE, "plus_staff")
    staffByHost.set(testHost, made)
    return made
  })
  /** Plus through the staff route, as an operator without payments gives it. */
  const grantPlus = (userId: string) =>
    Effect.gen(function* () {
      const granted = yield* post(
        `${API}/moderation/billing/users/${userId}/plus`,
        { months: 1 },
        (yield* staffAccount).access_token
      )
      expect(granted.status).toBe(200)
    })

  const createStatus = (token: string) => Effect.flatMap(post(`${API}/guilds`, { name: "One more" }, token), answer)
  const joinListed = (token: string, guildId: string) =>
    Effect.flatMap(post(`${API}/discovery/guilds/${guildId}/join`, undefined, token), answer)
  const guildCount = (token: string) =>
    Effect.map(
      Effect.flatMap(send("GET", `${API}/users/@me/guilds?limit=200`, undefined, token), json),
      (body) => (body as ReadonlyArray<unknown>).length
    )
  const maxGuilds = (token: string) =>
    Effect.map(
      Effect.flatMap(send("GET", `${API}/billing/status`, undefined, token), json),
      (body) => (body as { limits: { max_guilds: number } }).limits.max_guilds
    )

  /** `n` guilds of `owner`, each with an invitation: their codes. */
  const invitations = (owner: Registered, n: number) =>
    Effect.forEach(Array.from({ length: n }), (_, i) =>
      Effect.flatMap(createGuild(owner.access_token, `Open ${i}`), (guild) =>
        inviteTo(owner.access_token, guild.system_channel_id)
      )
    )

  describe("Plus: the account's guild cap", () => {
    layer(host(), { timeout: "240 seconds" })((it) => {
      it.effect("free: 100 on create, invitation and catalogue join (30001); Plus: 200 the same three ways", () =>
        Effect.gen(function* () {
          const busy = yield* user("cap_busy")
          const owner = yield* user("cap_owner")
          const helper = yield* user("cap_helper")
          const listed = yield* listedGuild(owner, helper, "Listed Place")
          const [code, later] = yield* invitations(owner, 2)
          yield* seedGuilds(busy.user_id, 99, 100)
          // the 100th through HTTP
          expect((yield* createStatus(busy.access_token)).status).toBe(201)
          expect(yield* maxGuilds(busy.access_token)).toBe(100)
          expect(yield* createStatus(busy.access_token)).toEqual({ status: 400, body: CAP_REACHED })
          expect(yield* answer(yield* accept(busy.access_token, code ?? ""))).toEqual({
            status: 400,
            body: CAP_REACHED
          })
          expect(yield* joinListed(busy.access_token, listed.id)).toEqual({ status: 400, body: CAP_REACHED })
          expect(yield* guildCount(busy.access_token)).toBe(100)

          yield* grantPlus(busy.user_id)
          expect(yield* maxGuilds(busy.access_token)).toBe(200)
          expect((yield* accept(busy.access_token, code ?? "")).status).toBe(200)
          expect((yield* joinListed(busy.access_token, listed.id)).status).toBe(200)
          expect((yield* createStatus(busy.access_token)).status).toBe(201)
          expect(yield* guildCount(busy.access_token)).toBe(103)
          yield* seedGuilds(busy.user_id, 96, 199)
          expect((yield* createStatus(busy.access_token)).status).toBe(201)
          expect(yield* guildCount(busy.access_token)).toBe(200)
          expect(yield* createStatus(busy.access_token)).toEqual({ status: 400, body: CAP_REACHED })
          expect(yield* answer(yield* accept(busy.access_token, later ?? ""))).toEqual({
            status: 400,
            body: CAP_REACHED
          })
          // the seeding itself was held to the cap it was given: a 201st is refused there too
          expect(yield* Effect.flip(seedGuilds(busy.user_id, 1, 200)).pipe(Effect.map((error) => error._tag))).toBe(
            "GuildLimitReached"
          )
        })
      )

      it.effect("concurrent joins and creations at the cap: exactly one gets in, free and with Plus", () =>
        Effect.gen(function* () {
          const busy = yield* user("cap_race")
          const owner = yield* user("cap_race_owner")
          /** Six invitations accepted and two guilds created, all at once: the answers' statuses. */
          const rush = Effect.flatMap(invitations(owner, 6), (codes) =>
            Effect.all(
              [
                ...codes.map((code) => Effect.map(accept(busy.access_token, code), (r) => r.status)),
                ...[1, 2].map(() => Effect.map(createStatus(busy.access_token), (r) => r.status))
              ],
              { concurrency: "unbounded" }
            )
          )
          const admitted = (statuses: ReadonlyArray<number>) =>
            statuses.filter((status) => status === 200 || status === 201).length
          yield* seedGuilds(busy.user_id, 99, 100)
          const free = yield* rush
          expect(admitted(free)).toBe(1)
          expect(free.filter((status) => status === 400)).toHaveLength(7)
          expect(yield* guildCount(busy.access_token)).toBe(100)

          yield* grantPlus(busy.user_id)
          yield* seedGuilds(busy.user_id, 99, 199)
          const plus = yield* rush
          expect(admitted(plus)).toBe(1)
          expect(plus.filter((status) => status === 400)).toHaveLength(7)
          expect(yield* guildCount(busy.access_token)).toBe(200)
        })
      )
    })
  })

  describe("Plus: banner and animated avatar", () => {
    layer(host(), { timeout: "120 seconds" })((it) => {
      const patchMe = (token: string, body: unknown) =>
        Effect.flatMap(send("PATCH", `${API}/users/@me`, body, token), answer)
      /** The served image's type (from its signature) and, for a GIF, its frames. */
      const framesOf = (path: string) =>
        Effect.gen(function* () {
          const served = yield* (yield* TestHost.TestHost).fetch(path)
          expect(served.status).toBe(200)
          const bytes = new Uint8Array(yield* Effect.promise(() => served.arrayBuffer()))
          const gif = Buffer.from(bytes.subarray(0, 6)).toString("latin1") === "GIF89a"
          return { format: gif ? "gif" : served.headers.get("content-type"), frames: gif ? gifFrames(bytes) : 1 }
        })

      it.effect(
        "without Plus: a banner is 400 BANNER_REQUIRES_PREMIUM and changes nothing; removing one is allowed",
        () =>
          Effect.gen(function* () {
            const free = yield* user("banner_free")
            const refused = yield* patchMe(free.access_token, {
              bio: "kept?",
              avatar: dataUri(png(32)),
              banner: dataUri(png(64))
            })
            expect(refused).toEqual({
              status: 400,
              body: {
                code: 50035,
                message: "Invalid Form Body",
                errors: {
                  banner: {
                    _errors: [{ code: "BANNER_REQUIRES_PREMIUM", message: "Profile banners require Veche Plus" }]
                  }
                }
              }
            })
            const me = (yield* json(yield* send("GET", `${API}/users/@me`, undefined, free.access_token))) as {
              bio: string | null
              avatar: string | null
              banner: string | null
            }
            expect({ bio: me.bio ?? "", avatar: me.avatar, banner: me.banner }).toEqual({
              bio: "",
              avatar: null,
              banner: null
            })
            expect(yield* patchMe(free.access_token, { banner: null })).toMatchObject({
              status: 200,
              body: { banner: null }
            })
          })
      )

      it.effect("with Plus a banner is stored and served, and removed again", () =>
        Effect.gen(function* () {
          const member = yield* user("banner_plus")
          yield* grantPlus(member.user_id)
          const set = yield* patchMe(member.access_token, { banner: dataUri(png(64)) })
          expect(set.status).toBe(200)
          const banner = (set.body as { banner: string }).banner
          expect(banner).toMatch(/^[0-9a-f]{32}$/)
          expect((yield* framesOf(`${API}/user-banners/${member.user_id}/${banner}.png`)).format).toBe("image/png")
          expect(yield* patchMe(member.access_token, { banner: null })).toMatchObject({
            status: 200,
            body: { banner: null }
          })
        })
      )

      it.effect("an animated avatar: its first frame, still, without Plus; animated (a_) with Plus", () =>
        Effect.gen(function* () {
          const free = yield* user("anim_free")
          const gif = dataUri(animatedGif(16, 3), "image/gif")
          const still = yield* patchMe(free.access_token, { avatar: gif })
          expect(still.status).toBe(200)
          const stillHash = (still.body as { avatar: string }).avatar
          expect(stillHash).toMatch(/^[0-9a-f]{32}$/)
          expect(yield* framesOf(`${API}/avatars/${free.user_id}/${stillHash}.gif`)).toEqual({
            format: "gif",
            frames: 1
          })

          const member = yield* user("anim_plus")
          yield* grantPlus(member.user_id)
          const moving = yield* patchMe(member.access_token, { avatar: gif })
          expect(moving.status).toBe(200)
          const movingHash = (moving.body as { avatar: string }).avatar
          expect(movingHash).toMatch(/^a_[0-9a-f]{32}$/)
          expect(yield* framesOf(`${API}/avatars/${member.user_id}/${movingHash}.gif`)).toEqual({
            format: "gif",
            frames: 3
          })
        })
      )

      it.effect("premium_type: 0 free, 2 with Plus (GET and PATCH @me), 0 for a term that has ended", () =>
        Effect.gen(function* () {
          const premiumTypeOf = (token: string) =>
            Effect.map(
              Effect.flatMap(send("GET", `${API}/users/@me`, undefined, token), json),
              (body) => (body as { premium_type: number }).premium_type
            )
          const member = yield* user("premium_type")
          expect(yield* premiumTypeOf(member.access_token)).toBe(0)
          yield* grantPlus(member.user_id)
          expect(yield* premiumTypeOf(member.access_token)).toBe(2)
          expect(yield* patchMe(member.access_token, { bio: "paid" })).toMatchObject({
            status: 200,
            body: { bio: "paid", premium_type: 2 }
          })

          // a one-month grant made two months ago: its row is there, its term is over
          const lapsed = yield* user("premium_lapsed")
          const staffId = Snowflake.Snowflake.make((yield* staffAccount).user_id)
          const testHost = yield* TestHost.TestHost
          yield* testHost.run(
            Effect.gen(function* () {
              const past = DateTime.subtract(yield* DateTime.now, { days: 62 })
              const grant = {
                id: Snowflake.Snowflake.make(String(BigInt(lapsed.user_id) + 1n)),
                staffId,
                userId: Snowflake.Snowflake.make(lapsed.user_id),
                kind: "plus",
                months: 1,
                count: 0,
                createdAt: past
              } as const
              yield* (yield* BillingRepo.BillingRepo).grantPlus(grant, past)
            })
          )
          expect(yield* premiumTypeOf(lapsed.access_token)).toBe(0)
        })
      )
    })
  })

  describe("Plus: the term ends", () => {
    // Its own host: the clock moves a month. Memory only: on PostgreSQL every periodic worker wakes
    // for each simulated interval (thousands of real round trips, 80 s). The end is the domain's
    // comparison (Entitlements) of the stored premium_until with the clock, the same on both stores.
    layer(host(), { timeout: "120 seconds" })((it) => {
      it.effect.skipIf(repositories !== undefined)(
        "a month after a one-month grant the free limits are back (signed in again over HTTP)",
        () =>
          Effect.gen(function* () {
            const phone = "+79676555001"
            const member = yield* register(phone, "plus_ends")
            yield* grantPlus(member.user_id)
            expect(yield* maxGuilds(member.access_token)).toBe(200)
            const banner = { banner: dataUri(png(64)) }
            expect((yield* send("PATCH", `${API}/users/@me`, banner, member.access_token)).status).toBe(200)
            yield* (yield* TestHost.TestHost).adjustClock("32 days")
            // the access token has ended too: a fresh sign-in, as the person would
            const signedIn = yield* login({ login: phone, password: PASSWORD })
            expect(signedIn.status).toBe(200)
            const token = ((yield* json(signedIn)) as { access_token: string }).access_token
            const status = (yield* json(yield* send("GET", `${API}/billing/status`, undefined, token))) as {
              plus: { active: boolean }
              limits: { max_guilds: number; message_length: number }
            }
            expect(status.plus.active).toBe(false)
            expect(status.limits).toMatchObject({ max_guilds: 100, message_length: 2000 })
            const refused = yield* Effect.flatMap(send("PATCH", `${API}/users/@me`, banner, token), answer)
            expect(refused).toMatchObject({ status: 400, body: { code: 50035 } })
            expect(JSON.stringify(refused.body)).toContain("BANNER_REQUIRES_PREMIUM")
          }),
        { timeout: 120_000 }
      )
    })
  })

  describe("Plus: billing in personal data", () => {
    layer(host(), { timeout: "120 seconds" })((it) => {
      it.effect("the export carries payments, Plus and boosts without card data; erasure keeps payments unlinked", () =>
        Effect.gen(function* () {
          const testHost = yield* TestHost.TestHost
          const payer = yield* user("pd_payer")
          const owner = yield* user("pd_owner")
          const guild = yield* createGuild(owner.access_token, "Boosted")
          expect(
            (yield* accept(payer.access_token, yield* inviteTo(owner.access_token, guild.system_channel_id))).status
          ).toBe(200)
          const payerId = Snowflake.Snowflake.make(payer.user_id)
          // a paid Plus month with a saved card, as a settled YooKassa payment leaves it
          const orderId = yield* testHost.run(
            Effect.gen(function* () {
              const repo = yield* BillingRepo.BillingRepo
              const now = yield* DateTime.now
              const order = yield* repo.createOrder({
                id: "pd-order-1",
                userId: payerId,
                planId: "plus_1m",
                kind: "plus",
                months: 1,
                amountRub: 199,
                phone: "+79001234567",
                renewal: false,
                createdAt: now
              })
              yield* repo.attachPayment(order.id, "2f000000-pd00-5000-9000-000000000001")
              yield* repo.settle({
                orderId: order.id,
                paymentId: "2f000000-pd00-5000-9000-000000000001",
                status: "succeeded",
                now,
                savedMethodId: "pm-saved-card-token",
                boostIds: []
              })
              return order.id
            })
          )
          const staffToken = (yield* staffAccount).access_token
          expect(
            (yield* post(
              `${API}/moderation/billing/users/${payer.user_id}/boosts`,
              { count: 2, months: 1 },
              staffToken
            )).status
          ).toBe(200)
          expect((yield* post(`${API}/guilds/${guild.id}/boosts`, undefined, payer.access_token)).status).toBe(200)
          expect((yield* post(`${API}/guilds/${guild.id}/boosts`, undefined, payer.access_token)).status).toBe(200)

          // the export
          expect((yield* post(`${API}/users/@me/export`, undefined, payer.access_token)).status).toBe(200)
          yield* testHost.run(Effect.flatMap(Effect.service(DataExports.DataExports), (exports) => exports.work))
          const ready = (yield* json(yield* send("GET", `${API}/users/@me/export`, undefined, payer.access_token))) as {
            url: string
          }
          const files = unzip(
            new Uint8Array(yield* Effect.promise(() => testHost.fetchPromise(ready.url).then((r) => r.arrayBuffer())))
          )
          const text = files["billing.json"] ?? "null"
          expect(JSON.parse(text)).toEqual({
            plus: { premium_until: expect.any(String), active: true, card_saved: true },
            boosts: [
              {
                id: expect.any(String),
                guild_id: guild.id,
                applied_at: expect.any(String),
                ends_at: expect.any(String)
              },
              {
                id: expect.any(String),
                guild_id: guild.id,
                applied_at: expect.any(String),
                ends_at: expect.any(String)
              }
            ],
            payments: [
              {
                id: orderId,
                plan_id: "plus_1m",
                kind: "plus",
                months: 1,
                amount_rub: 199,
                status: "succeeded",
                renewal: false,
                created_at: expect.any(String),
                paid_at: expect.any(String)
              }
            ]
          })
          expect(text).not.toContain("pm-saved-card-token")
          expect(text).not.toContain("9001234567")
          expect(files["README.txt"] ?? Object.values(files).join("")).toContain("billing.json")
          // a user who never paid has no billing file
          const none = yield* testHost.run(
            Effect.flatMap(Effect.service(BillingRepo.BillingRepo), (repo) =>
              repo.orders(Snowflake.Snowflake.make(owner.user_id), 10)
            )
          )
          expect(none).toEqual([])

          // erasure, as the deletion worker carries it out (due now rather than in 14 days)
          const premium = () =>
            Effect.map(
              Effect.flatMap(send("GET", `${API}/guilds/${guild.id}/premium`, undefined, owner.access_token), json),
              (body) => (body as { boost_count: number }).boost_count
            )
          expect(yield* premium()).toBe(2)
          expect(
            (yield* post(`${API}/users/@me/delete`, { password: "correct horse battery" }, payer.access_token)).status
          ).toBe(200)
          yield* testHost.run(
            Effect.gen(function* () {
              const deletions = yield* DeletionsRepo.DeletionsRepo
              yield* deletions.cancel(payerId)
              const now = yield* DateTime.now
              yield* deletions.request({ userId: payerId, state: "pending", requestedAt: now, deleteAt: now })
              expect(yield* Effect.flatMap(Effect.service(AccountDeletion.AccountDeletion), (d) => d.carryOutDue)).toBe(
                1
              )
            })
          )
          expect(yield* premium()).toBe(0)
          const kept = yield* testHost.run(
            Effect.gen(function* () {
              const repo = yield* BillingRepo.BillingRepo
              const now = yield* DateTime.now
              return {
                orders: yield* repo.orders(payerId, 10),
                plus: yield* repo.plus(payerId),
                slots: yield* repo.slots(payerId, now),
                money: yield* repo.money(now, DateTime.subtract(now, { days: 1 }))
              }
            })
          )
          expect(kept.orders.map((order) => [order.id, order.amountRub, order.status, order.phone])).toEqual([
            [orderId, 199, "succeeded", BillingRepo.ERASED_PHONE]
          ])
          expect(Option.isNone(kept.plus)).toBe(true)
          expect(kept.slots).toEqual([])
          // the paid sum still counts the payment
          expect(kept.money.paidMonthRub).toBeGreaterThanOrEqual(199)
        })
      )
    })
  })
}
