/**
 * Plus and boosts through HTTP, on the repositories the caller gives (memory by default;
 * PostgreSQL in adapters/postgres/test/BillingRoutes.test.ts, where ten duplicate notifications
 * really race). Two hosts: payments off (`SERVICE_BILLING_PROVIDER=none`: 501, staff grants only),
 * and YooKassa's adapter against the local fake of its v3 API, whose notifications go to our
 * webhook through the host as if from YooKassa's addresses.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Billing, BillingJobs } from "@veche/billing"
import { type Dispatch, EventBus, Snowflake } from "@veche/platform"
import { TestHost } from "@veche/test-host"
import { YooKassaPaymentProvider } from "@veche/yookassa"
import { FakeYooKassa, settings } from "@veche/yookassa/test/FakeYooKassa"
import { ConfigProvider, DateTime, Duration, Effect, Fiber, Layer, Ref, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import { json, post, type Registered, register, send } from "./Accounts.ts"
import { createApplication } from "./ApplicationScenarios.ts"
import { createGuild, guildWith, inviteTo } from "./Guilds.ts"

/** The value, or the test fails here. */
const must = <A>(value: A | null | undefined): A => {
  if (value === null || value === undefined) throw new Error("expected a value")
  return value
}

const API = "/api/v10"
const STAFF_PHONE = "+79674999999"
const YOOKASSA_ADDRESS = "185.71.76.10"

const answer = (response: Response) =>
  Effect.map(
    Effect.promise(() => response.text()),
    (text) => ({ status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) })
  )

interface Status {
  readonly plus: { readonly active: boolean; readonly premium_until: string | null; readonly autorenew: boolean }
  readonly boosts: {
    readonly total: number
    readonly free: number
    readonly slots: ReadonlyArray<{ readonly id: string; readonly guild_id: string | null; readonly ends_at: string }>
  }
  readonly payments: ReadonlyArray<{
    readonly id: string
    readonly status: string
    readonly plan_id: string
    readonly amount_rub: number
  }>
  readonly limits: { readonly message_length: number; readonly max_guilds: number }
}

interface Premium {
  readonly tier: number
  readonly boost_count: number
  readonly boosters: ReadonlyArray<{ readonly user_id: string; readonly boost_id: string }>
  readonly next_tier_at: number | null
  readonly limits: { readonly stickers: number; readonly emoji_static: number }
}

const status = (token: string) =>
  Effect.map(send("GET", `${API}/billing/status`, undefined, token), (r) =>
    Effect.map(json(r), (b) => b as Status)
  ).pipe(Effect.flatten)

const premium = (token: string, guildId: string) =>
  Effect.flatMap(send("GET", `${API}/guilds/${guildId}/premium`, undefined, token), answer)

/**
 * `clockJumps: false` leaves out the two scenarios that move the host's clock a month (boost
 * expiry, renewal): every worker of the host wakes for each simulated interval, which on
 * PostgreSQL takes minutes. Their PostgreSQL side (expiry and renewal claims) is in the
 * BillingRepo contract.
 */
export const billingScenarios = (
  repositories?: () => Layer.Layer<TestHost.Repositories>,
  options: { readonly clockJumps?: boolean } = {}
) => {
  const jumps = options.clockJumps ?? true
  let phone = 79674000000
  const user = (name: string): Effect.Effect<Registered, never, TestHost.TestHost> =>
    register(`+${++phone}`, `${name}_${phone % 100000}`)
  const staffUser = () => register(STAFF_PHONE, `billing_staff_${Date.now() % 100000}`)

  const env = (values: Record<string, string> = {}) =>
    ConfigProvider.layer(ConfigProvider.fromEnvRecord({ SERVICE_BILLING_JOBS_INTERVAL: "1000 days", ...values }))

  const offHost = () =>
    TestHost.layer({
      rateLimits: { enabled: false },
      repositories: repositories?.(),
      staff: { phones: [STAFF_PHONE] }
    }).pipe(Layer.provide(env()))

  const yookassaHost = () =>
    Layer.unwrap(
      Effect.map(Effect.service(FakeYooKassa), (fake) =>
        TestHost.layer({
          rateLimits: { enabled: false },
          repositories: repositories?.(),
          staff: { phones: [STAFF_PHONE] },
          payments: YooKassaPaymentProvider.layer({
            ...YooKassaPaymentProvider.defaults,
            ...settings(fake),
            returnUrl: "https://veche.test/billing/return",
            // generous: ten concurrent calls on a loaded machine; no scenario scripts a timeout
            timeout: Duration.seconds(10),
            retryDelay: Duration.millis(10)
          }).pipe(Layer.provide(FetchHttpClient.layer))
        }).pipe(Layer.provide(env()))
      )
    ).pipe(Layer.provideMerge(FakeYooKassa.layer({ timeoutMs: 800 })))

  /** The fake's notifications go to our webhook through the host, from one of YooKassa's addresses. */
  const wire = Effect.gen(function* () {
    const fake = yield* FakeYooKassa
    const host = yield* TestHost.TestHost
    fake.webhook((body) =>
      host
        .fetchPromise(`${API}/billing/notifications`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": YOOKASSA_ADDRESS },
          body
        })
        .then((response) => response.status)
    )
    return fake
  })

  const checkout = (token: string, plan: string, phoneNumber = "+7 (900) 123-45-67") =>
    Effect.flatMap(post(`${API}/billing/checkout`, { plan, phone: phoneNumber }, token), answer)

  describe("Billing with payments off", () => {
    layer(offHost(), { timeout: "120 seconds" })((it) => {
      it.effect("plans: the spec's shape, payments off; checkout answers 501; a notification 200", () =>
        Effect.gen(function* () {
          const buyer = yield* user("bill_off")
          const plans = yield* answer(yield* send("GET", `${API}/billing/plans`, undefined, buyer.access_token))
          expect(plans.status).toBe(200)
          const body = plans.body as Record<string, unknown> & { plans: ReadonlyArray<Record<string, unknown>> }
          expect(body).toMatchObject({
            enabled: false,
            currency: "RUB",
            boosts: [2, 7, 14],
            free: { message_length: 2000, max_guilds: 100, profile_banner: false },
            plus: { message_length: 4000, max_guilds: 200, animated_avatar: true, profile_banner: true }
          })
          expect(body.plans[0]).toEqual({
            ID: "plus_1m",
            Kind: "plus",
            Name: "Veche Plus, 1 month",
            PriceRub: 199,
            Months: 1
          })
          for (const plan of body.plans)
            expect(Object.keys(plan).sort()).toEqual(["ID", "Kind", "Months", "Name", "PriceRub"])
          expect((body.tiers as ReadonlyArray<{ stickers: number }>).map((t) => t.stickers)).toEqual([5, 15, 30, 60])
          expect(yield* checkout(buyer.access_token, "plus_1m")).toEqual({
            status: 501,
            body: { code: 0, message: "501: Not Implemented" }
          })
          const notified = yield* send("POST", `${API}/billing/notifications`, {
            type: "notification",
            event: "payment.succeeded",
            object: { id: "2f000001-000f-5000-9000-000000000000" }
          })
          expect(notified.status).toBe(200)
          expect((yield* status(buyer.access_token)).plus.active).toBe(false)
          expect((yield* send("GET", `${API}/billing/status`)).status).toBe(401)
        })
      )

      it.effect("staff grants: 403 for others, bounds checked, Plus and boosts given and shown", () =>
        Effect.gen(function* () {
          const staff = yield* staffAccount
          const member = yield* user("bill_granted")
          const path = `${API}/moderation/billing/users/${member.user_id}`
          const refused = yield* answer(yield* post(`${path}/plus`, { months: 1 }, member.access_token))
          expect(refused).toEqual({ status: 403, body: { code: 50013, message: "Missing Permissions" } })
          expect((yield* post(`${path}/plus`, { months: 25 }, staff.access_token)).status).toBe(400)
          expect((yield* post(`${path}/plus`, { months: 0 }, staff.access_token)).status).toBe(400)
          expect((yield* post(`${path}/boosts`, { count: 15, months: 1 }, staff.access_token)).status).toBe(400)
          // no account with that id: nothing is granted to nobody
          for (const kind of ["plus", "boosts"]) {
            const nobody = yield* answer(
              yield* post(
                `${API}/moderation/billing/users/999999999999999999/${kind}`,
                { count: 1, months: 1 },
                staff.access_token
              )
            )
            expect(nobody).toEqual({ status: 404, body: { code: 10013, message: "Unknown User" } })
          }
          // nor to a bot (an application's bot user exists, but cannot hold Plus or slots)
          const bot = yield* createApplication(member.access_token, "Grant Seeker")
          const toBot = yield* answer(
            yield* post(`${API}/moderation/billing/users/${bot.id}/plus`, { months: 1 }, staff.access_token)
          )
          expect(toBot).toEqual({ status: 404, body: { code: 10013, message: "Unknown User" } })
          const granted = yield* answer(yield* post(`${path}/plus`, { months: 2 }, staff.access_token))
          expect(granted.status).toBe(200)
          const until = (granted.body as { premium_until: string }).premium_until
          expect(until).toBe("2026-03-01T00:00:00.000Z")
          const boosts = yield* answer(yield* post(`${path}/boosts`, { count: 3, months: 1 }, staff.access_token))
          expect(boosts).toEqual({ status: 200, body: { granted: 3 } })
          const seen = yield* status(member.access_token)
          expect(seen.plus).toEqual({ active: true, premium_until: until, autorenew: false })
          expect(seen.boosts).toMatchObject({ total: 3, free: 3 })
          expect(seen.limits).toMatchObject({ message_length: 4000, max_guilds: 200 })
          // recorded with the staff member
          const recorded = yield* Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
            host.run(
              Effect.flatMap(Effect.service(Billing.Billing), (billing) =>
                billing.grantsTo(Snowflake.Snowflake.make(member.user_id))
              )
            )
          )
          expect(recorded.map((g) => [g.kind, g.staffId])).toEqual([
            ["boosts", staff.user_id],
            ["plus", staff.user_id]
          ])
          // and in the staff audit log, newest first
          const logged = yield* answer(
            yield* send("GET", `${API}/moderation/audit-log?target=${member.user_id}`, undefined, staff.access_token)
          )
          expect(logged.status).toBe(200)
          const entries = (logged.body as { entries: ReadonlyArray<Record<string, unknown>> }).entries
          expect(entries.map((entry) => [entry.action, entry.user_id, entry.target_type, entry.details])).toEqual([
            ["billing.boosts", staff.user_id, "entitlement", { months: "1", count: "3" }],
            ["billing.plus", staff.user_id, "entitlement", { months: "2", premium_until: until }]
          ])
          // the statistics' money keys read billing: this Plus and these slots are in force
          const stats = yield* answer(yield* send("GET", `${API}/moderation/stats`, undefined, staff.access_token))
          const money = (stats.body as { money: { plus_active: number; boosts: number; sms_balance: null } }).money
          expect(money.plus_active).toBeGreaterThanOrEqual(1)
          expect(money.boosts).toBeGreaterThanOrEqual(3)
          expect(money.sms_balance).toBeNull()
        })
      )

      it.effect("Plus writes messages up to 4000 characters; without it 2000 is the limit", () =>
        Effect.gen(function* () {
          const staff = yield* staffToken
          const writer = yield* user("bill_writer")
          const guild = yield* createGuild(writer.access_token, "Long Messages")
          const path = `${API}/channels/${guild.system_channel_id}/messages`
          const long = "ы".repeat(3000)
          const refused = yield* answer(yield* post(path, { content: long }, writer.access_token))
          expect(refused).toMatchObject({
            status: 400,
            body: {
              code: 50035,
              errors: {
                content: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 2000 or fewer in length." }] }
              }
            }
          })
          expect(
            (yield* post(`${API}/moderation/billing/users/${writer.user_id}/plus`, { months: 1 }, staff)).status
          ).toBe(200)
          const sent = yield* answer(yield* post(path, { content: long }, writer.access_token))
          expect(sent.status).toBe(200)
          expect((sent.body as { content: string }).content).toHaveLength(3000)
          expect((yield* post(path, { content: "x".repeat(4001) }, writer.access_token)).status).toBe(400)
        })
      )

      it.effect(
        "boosts: applied, tier follows the count, moved, someone else's refused, 409 when none is free, expiry lowers the tier",
        () =>
          Effect.gen(function* () {
            const booster = yield* user("bill_booster")
            const other = yield* user("bill_other")
            const outsider = yield* user("bill_outsider")
            const guild = yield* guildWith(booster.access_token, [other.access_token], "Boosted")
            const second = yield* createGuild(booster.access_token, "Second")
            yield* grantBoosts(booster.user_id, 2, 1)
            yield* grantBoosts(other.user_id, 1, 2)
            const boostPath = `${API}/guilds/${guild.id}/boosts`
            // what the guild's members are told
            const bus = yield* Effect.flatMap(Effect.service(TestHost.TestHost), (host) =>
              host.run(Effect.service(EventBus.EventBus))
            )
            const seen = yield* Ref.make<ReadonlyArray<Dispatch.Dispatch>>([])
            const listening = yield* bus.events.pipe(
              Stream.runForEach((dispatch) => Ref.update(seen, (all) => [...all, dispatch])),
              Effect.forkChild
            )
            yield* Effect.yieldNow
            const first = yield* answer(yield* post(boostPath, {}, booster.access_token))
            expect(first.status).toBe(200)
            expect(first.body).toMatchObject({ user_id: booster.user_id, guild_id: guild.id, canceled: false })
            expect(((yield* premium(booster.access_token, guild.id)).body as Premium).tier).toBe(0)
            expect((yield* post(boostPath, {}, booster.access_token)).status).toBe(200)
            const tier1 = (yield* premium(other.access_token, guild.id)).body as Premium
            expect(tier1).toMatchObject({
              tier: 1,
              boost_count: 2,
              next_tier_at: 7,
              limits: { stickers: 15, emoji_static: 100 }
            })
            expect((yield* premium(outsider.access_token, guild.id)).status).toBe(403)
            // GUILD_UPDATE with the new tier went to the guild
            const updates = (yield* Ref.get(seen)).filter(
              (d) => d.type === "GUILD_UPDATE" && (d.guildIds ?? []).some((id) => id === guild.id)
            )
            const tiers = updates.map((d) => d.data as { premium_tier: number; premium_subscription_count: number })
            expect(tiers.map((t) => [t.premium_tier, t.premium_subscription_count])).toEqual([
              [0, 1],
              [1, 2]
            ])
            yield* Fiber.interrupt(listening)
            // the guild object carries the tier and the count
            const shown = (yield* json(
              yield* send("GET", `${API}/guilds/${guild.id}`, undefined, other.access_token)
            )) as Record<string, unknown>
            expect(shown).toMatchObject({ premium_tier: 1, premium_subscription_count: 2 })
            // and so does an invite's card of it, to anyone holding the code
            const code = yield* inviteTo(booster.access_token, guild.system_channel_id)
            const card = yield* answer(yield* send("GET", `${API}/invites/${code}`, undefined, outsider.access_token))
            expect(card).toMatchObject({
              status: 200,
              body: { guild: { id: guild.id, premium_subscription_count: 2 } }
            })
            // no slot left
            const none = yield* answer(yield* post(boostPath, {}, booster.access_token))
            expect(none.status).toBe(409)
            // someone else's boost
            const firstId = (first.body as { id: string }).id
            const foreign = yield* answer(
              yield* send("DELETE", `${boostPath}/${firstId}`, undefined, other.access_token)
            )
            expect(foreign).toEqual({ status: 403, body: { code: 50013, message: "Missing Permissions" } })
            expect((yield* send("DELETE", `${boostPath}/123`, undefined, booster.access_token)).status).toBe(404)
            // moved to the second guild: freed here, applied there
            expect((yield* send("DELETE", `${boostPath}/${firstId}`, undefined, booster.access_token)).status).toBe(204)
            expect(((yield* premium(booster.access_token, guild.id)).body as Premium).tier).toBe(0)
            const moved = yield* answer(yield* post(`${API}/guilds/${second.id}/boosts`, {}, booster.access_token))
            expect(moved.body).toMatchObject({ id: firstId, guild_id: second.id })
            // the other member's two-month slot keeps the first guild at tier 1 with the booster's remaining one
            expect((yield* post(boostPath, {}, other.access_token)).status).toBe(200)
            expect(((yield* premium(booster.access_token, guild.id)).body as Premium).tier).toBe(1)
            if (!jumps) return
            // a month later the booster's slots end; the job frees them
            const host = yield* TestHost.TestHost
            yield* host.adjustClock("32 days")
            const round = yield* host.run(Effect.flatMap(Effect.service(BillingJobs.BillingJobs), (jobs) => jobs.round))
            expect(round.expired).toBeGreaterThanOrEqual(2)
            // (the access tokens have expired by now: the domain answers directly)
            const billing = (f: (b: Billing.Billing["Service"]) => Effect.Effect<unknown>) =>
              host.run(Effect.flatMap(Effect.service(Billing.Billing), f))
            const after = (yield* billing((b) =>
              b.guildPremium(Snowflake.Snowflake.make(guild.id))
            )) as Billing.GuildPremium
            expect(after).toMatchObject({ tier: 0, boostCount: 1 })
            expect(after.boosts.map((b) => b.userId)).toEqual([other.user_id])
            const moved2 = (yield* billing((b) =>
              b.guildPremium(Snowflake.Snowflake.make(second.id))
            )) as Billing.GuildPremium
            expect(moved2.boostCount).toBe(0)
            const left = (yield* billing((b) => b.status(Snowflake.Snowflake.make(booster.user_id)))) as Billing.Status
            expect(left.boosts).toHaveLength(0)
          }),
        { timeout: 180_000 }
      )
    })
  })

  const grantBoosts = (userId: string, count: number, months: number) =>
    Effect.gen(function* () {
      const staff = yield* staffToken
      const granted = yield* post(`${API}/moderation/billing/users/${userId}/boosts`, { count, months }, staff)
      expect(granted.status).toBe(200)
    })

  /** The staff account of the host (registered by the first test that needs it). */
  let staffCache: Registered | null = null
  const staffAccount = Effect.gen(function* () {
    if (staffCache === null) staffCache = yield* staffUser()
    return staffCache
  })
  const staffToken = Effect.map(staffAccount, (account) => account.access_token)

  describe("Billing through YooKassa (the local fake of its v3 API)", () => {
    layer(yookassaHost(), { timeout: "120 seconds" })((it) => {
      it.effect("checkout refuses an unknown plan and a bad phone in the API's error shape", () =>
        Effect.gen(function* () {
          const buyer = yield* user("bill_refused")
          const plans = yield* answer(yield* send("GET", `${API}/billing/plans`, undefined, buyer.access_token))
          expect((plans.body as { enabled: boolean }).enabled).toBe(true)
          const unknown = yield* checkout(buyer.access_token, "gold_forever")
          expect(unknown.status).toBe(400)
          expect(unknown.body).toMatchObject({
            code: 50035,
            errors: { plan: { _errors: [{ code: "BASE_TYPE_CHOICES" }] } }
          })
          for (const bad of ["+1 202 555 0100", "12345", "+7900123456x", "7".repeat(20)]) {
            const refused = yield* checkout(buyer.access_token, "plus_1m", bad)
            expect(refused.status).toBe(400)
            expect(refused.body).toMatchObject({
              code: 50035,
              errors: { phone: { _errors: [{ code: "PHONE_NUMBER_INVALID" }] } }
            })
          }
          const missing = yield* answer(yield* post(`${API}/billing/checkout`, { plan: "plus_1m" }, buyer.access_token))
          expect(missing.status).toBe(400)
          const nul = yield* answer(
            yield* post(`${API}/billing/checkout`, { plan: "plus\u0000", phone: "+79001234567" }, buyer.access_token)
          )
          expect(nul.status).toBe(400)
        })
      )

      it.effect(
        "checkout → the user pays → notification → Plus active; a lying notification and repeats grant nothing more",
        () =>
          Effect.gen(function* () {
            const fake = yield* wire
            const buyer = yield* user("bill_buyer")
            const started = yield* checkout(buyer.access_token, "plus_1m")
            expect(started.status).toBe(200)
            const payment = fake.last()
            expect((started.body as { confirmation_url: string }).confirmation_url).toBe(
              payment.confirmation?.confirmation_url
            )
            const sent = must(fake.requests.findLast((r) => r.method === "POST"))
            const order = must((yield* status(buyer.access_token)).payments[0])
            // our order id is the idempotence key, and the receipt carries the normalised phone
            expect(sent.idempotenceKey).toBe(order.id)
            expect(order).toMatchObject({ status: "pending", plan_id: "plus_1m", amount_rub: 199 })
            expect(payment.request).toMatchObject({
              save_payment_method: true,
              metadata: { order_id: order.id, user_id: buyer.user_id, plan_id: "plus_1m" },
              receipt: { customer: { phone: "79001234567" } }
            })

            // claims success while YooKassa says pending: nothing
            expect(yield* Effect.promise(() => fake.notify(payment.id, "succeeded"))).toBe(200)
            expect((yield* status(buyer.access_token)).plus.active).toBe(false)

            fake.succeed(payment.id)
            // ten concurrent duplicates: every one 200, one grant
            const answers = yield* Effect.promise(() =>
              Promise.all(Array.from({ length: 10 }, () => fake.notify(payment.id)))
            )
            expect(answers).toEqual(Array(10).fill(200))
            const paid = yield* status(buyer.access_token)
            expect(paid.plus).toEqual({ active: true, premium_until: "2026-02-01T00:00:00.000Z", autorenew: true })
            expect(paid.payments[0]).toMatchObject({ id: order.id, status: "succeeded" })
            expect(paid.limits.message_length).toBe(4000)

            // a late "canceled" claim, and an unknown payment: 200, nothing changes
            expect(yield* Effect.promise(() => fake.notify(payment.id, "canceled"))).toBe(200)
            const unknown = yield* send(
              "POST",
              `${API}/billing/notifications`,
              { type: "notification", event: "payment.succeeded", object: { id: "no-such-payment" } },
              undefined,
              YOOKASSA_ADDRESS
            )
            expect(unknown.status).toBe(200)
            expect((yield* status(buyer.access_token)).plus.premium_until).toBe("2026-02-01T00:00:00.000Z")
          })
      )

      it.effect(
        "notifications from other addresses are refused; YooKassa unreachable is a 503 so it delivers again",
        () =>
          Effect.gen(function* () {
            const fake = yield* wire
            const buyer = yield* user("bill_source")
            expect((yield* checkout(buyer.access_token, "boost_1m")).status).toBe(200)
            const payment = fake.last()
            fake.succeed(payment.id)
            const body = { type: "notification", event: "payment.succeeded", object: { id: payment.id } }
            const forged = yield* send("POST", `${API}/billing/notifications`, body, undefined, "8.8.8.8")
            expect(forged.status).toBe(403)
            expect((yield* status(buyer.access_token)).boosts.total).toBe(0)
            fake.trouble("500", "500", "500")
            const down = yield* send("POST", `${API}/billing/notifications`, body, undefined, YOOKASSA_ADDRESS)
            expect(down.status).toBe(503)
            expect((yield* status(buyer.access_token)).boosts.total).toBe(0)
            // delivered again once YooKassa answers: the boost slot is there, once
            expect(yield* Effect.promise(() => fake.notify(payment.id))).toBe(200)
            expect(yield* Effect.promise(() => fake.notify(payment.id))).toBe(200)
            expect((yield* status(buyer.access_token)).boosts).toMatchObject({ total: 1, free: 1 })
          })
      )

      it.effect("a canceled payment grants nothing; a provider failure at checkout is a 502", () =>
        Effect.gen(function* () {
          const fake = yield* wire
          const buyer = yield* user("bill_cancel")
          expect((yield* checkout(buyer.access_token, "plus_12m")).status).toBe(200)
          const payment = fake.last()
          fake.cancel(payment.id)
          expect(yield* Effect.promise(() => fake.notify(payment.id))).toBe(200)
          const seen = yield* status(buyer.access_token)
          expect(seen.plus.active).toBe(false)
          expect(seen.payments[0]).toMatchObject({ status: "canceled" })
          fake.trouble("500", "500", "500")
          expect((yield* checkout(buyer.access_token, "plus_1m")).status).toBe(502)
        })
      )

      it.effect.skipIf(!jumps)(
        "renewal: before the end the saved card is charged once, and Plus goes on",
        () =>
          Effect.gen(function* () {
            const fake = yield* wire
            const host = yield* TestHost.TestHost
            const buyer = yield* user("bill_renew")
            expect((yield* checkout(buyer.access_token, "plus_1m")).status).toBe(200)
            const payment = fake.last()
            fake.succeed(payment.id)
            expect(yield* Effect.promise(() => fake.notify(payment.id))).toBe(200)
            const until = must((yield* status(buyer.access_token)).plus.premium_until)
            const jobs = Effect.flatMap(Effect.service(BillingJobs.BillingJobs), (j) => j.round)
            const now = DateTime.toEpochMillis(yield* host.run(DateTime.now))
            // two days before the end
            yield* host.adjustClock(Duration.millis(Date.parse(until) - now - 2 * 86_400_000))
            const charges = () =>
              fake.requests.filter(
                (r) => (r.body as { payment_method_id?: string } | null)?.payment_method_id === `pm-${payment.id}`
              )
            yield* host.run(jobs)
            yield* host.run(jobs)
            expect(charges()).toHaveLength(1)
            const renewed = yield* host.run(
              Effect.flatMap(Effect.service(Billing.Billing), (b) => b.status(Snowflake.Snowflake.make(buyer.user_id)))
            )
            expect(DateTime.toEpochMillis(must(renewed.plus.premiumUntil))).toBeGreaterThan(Date.parse(until))
            expect(renewed.payments[0]).toMatchObject({ status: "succeeded", planId: "plus_1m", renewal: true })
          }),
        { timeout: 180_000 }
      )
    })
  })
}
