/**
 * The one behaviour suite every BillingRepo adapter must pass: on memory in every run, on
 * PostgreSQL when DATABASE_URL is set (boost slots refer to guilds, so guilds are made through the
 * guilds' repository). The concurrency cases matter on PostgreSQL: memory settles every step
 * atomically anyway.
 */
import { expect, type Vitest } from "@effect/vitest"
import type { GuildsRepo } from "@veche/guilds"
import { arrange, ids, user } from "@veche/guilds/test/contracts/GuildsRepoFixtures"
import type { Snowflake } from "@veche/platform"
import type { UsersRepo } from "@veche/users"
import { DateTime, Effect, Option } from "effect"
import { BillingRepo, type NewOrder } from "../../src/BillingRepo.ts"
import * as Terms from "../../src/Terms.ts"

/** The value, or the test fails here. */
const must = <A>(value: A | null | undefined): A => {
  if (value === null || value === undefined) throw new Error("expected a value")
  return value
}

export type BillingRepoIt = Vitest.MethodsNonLive<BillingRepo | GuildsRepo.GuildsRepo | UsersRepo.UsersRepo>

const T0 = DateTime.makeUnsafe(Date.UTC(2026, 0, 31, 12))
const later = (days: number) => DateTime.makeUnsafe(DateTime.toEpochMillis(T0) + days * 86_400_000)
const ms = DateTime.toEpochMillis

let counter = 0
const order = (userId: Snowflake.Snowflake, overrides: Partial<NewOrder> = {}): NewOrder => ({
  id: `contract-${process.pid}-${Date.now()}-${++counter}`,
  userId,
  planId: "plus_1m",
  kind: "plus",
  months: 1,
  amountRub: 199,
  phone: "79001234567",
  renewal: false,
  createdAt: T0,
  ...overrides
})

const succeeded = (
  orderId: string,
  now = T0,
  extra: { savedMethodId?: string | null; boostIds?: ReadonlyArray<Snowflake.Snowflake> } = {}
) => ({
  orderId,
  paymentId: `pay-${orderId}`,
  status: "succeeded" as const,
  now,
  savedMethodId: extra.savedMethodId ?? null,
  boostIds: extra.boostIds ?? []
})

const boostSlots = (repo: BillingRepo["Service"], userId: Snowflake.Snowflake, count: number, months = 1) =>
  Effect.gen(function* () {
    const created = yield* repo.createOrder(
      order(userId, { kind: "boost", planId: "boost_1m", amountRub: 149, months })
    )
    const slotIds: Array<Snowflake.Snowflake> = []
    for (let i = 0; i < count; i++) slotIds.push(yield* ids.next)
    yield* repo.settle(succeeded(created.id, T0, { boostIds: slotIds }))
    return slotIds
  })

export const billingRepoContract = (it: BillingRepoIt) => {
  it.effect("an order is created once per id; a payment id attaches once", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const buyer = yield* user("billing_buyer")
      const fresh = order(buyer)
      const first = yield* repo.createOrder(fresh)
      expect(first).toMatchObject({ id: fresh.id, status: "pending", providerPaymentId: null, paidAt: null })
      const again = yield* repo.createOrder({ ...fresh, amountRub: 5 })
      expect(again.amountRub).toBe(199)
      yield* repo.attachPayment(fresh.id, "pay-1")
      yield* repo.attachPayment(fresh.id, "pay-2")
      expect(Option.map(yield* repo.findOrder(fresh.id), (o) => o.providerPaymentId)).toEqual(Option.some("pay-1"))
      expect(yield* repo.findOrder("no-such-order")).toEqual(Option.none())
      expect((yield* repo.orders(buyer, 10)).map((o) => o.id)).toEqual([fresh.id])
    })
  )

  it.effect("settling grants Plus once; a later cancel changes nothing; months add up from what is left", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const buyer = yield* user("billing_plus")
      const first = yield* repo.createOrder(order(buyer))
      const settled = yield* repo.settle(succeeded(first.id, T0, { savedMethodId: "card-1" }))
      expect(Option.map(settled, (s) => [s.changed, s.order.status, s.order.providerPaymentId])).toEqual(
        Option.some([true, "succeeded", `pay-${first.id}`])
      )
      const plus = Option.getOrThrow(yield* repo.plus(buyer))
      // 31 January + 1 month: the last day of February
      expect(ms(plus.premiumUntil)).toBe(Date.UTC(2026, 1, 28, 12))
      expect(plus).toMatchObject({ paymentMethodId: "card-1", receiptPhone: "79001234567" })
      const repeat = yield* repo.settle(succeeded(first.id, later(1)))
      expect(Option.map(repeat, (s) => s.changed)).toEqual(Option.some(false))
      const cancel = yield* repo.settle({
        orderId: first.id,
        paymentId: "x",
        status: "canceled",
        now: T0,
        forgetMethod: true
      })
      expect(Option.map(cancel, (s) => [s.changed, s.order.status])).toEqual(Option.some([false, "succeeded"]))
      expect(Option.map(yield* repo.plus(buyer), (p) => p.paymentMethodId)).toEqual(Option.some("card-1"))
      // a second order while Plus runs extends from its end
      const second = yield* repo.createOrder(order(buyer, { months: 12 }))
      yield* repo.settle(succeeded(second.id, later(2)))
      expect(ms(Option.getOrThrow(yield* repo.plus(buyer)).premiumUntil)).toBe(
        ms(Terms.addMonths(plus.premiumUntil, 12))
      )
      expect(yield* repo.settle(succeeded("no-such-order"))).toEqual(Option.none())
    })
  )

  it.effect("ten concurrent settlements of one order grant once", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const buyer = yield* user("billing_race")
      const created = yield* repo.createOrder(order(buyer))
      const results = yield* Effect.forEach(
        Array.from({ length: 10 }, () => created.id),
        (orderId) => repo.settle(succeeded(orderId)),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => Option.isSome(r) && r.value.changed)).toHaveLength(1)
      expect(ms(Option.getOrThrow(yield* repo.plus(buyer)).premiumUntil)).toBe(ms(Terms.addMonths(T0, 1)))
    })
  )

  it.effect("two different orders settled at once both count (no lost month)", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const buyer = yield* user("billing_two")
      const a = yield* repo.createOrder(order(buyer))
      const b = yield* repo.createOrder(order(buyer))
      yield* Effect.all([repo.settle(succeeded(a.id)), repo.settle(succeeded(b.id))], { concurrency: "unbounded" })
      expect(ms(Option.getOrThrow(yield* repo.plus(buyer)).premiumUntil)).toBe(
        ms(Terms.addMonths(Terms.addMonths(T0, 1), 1))
      )
    })
  )

  it.effect("a cancel with revoked consent forgets the saved card", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const buyer = yield* user("billing_revoke")
      const first = yield* repo.createOrder(order(buyer))
      yield* repo.settle(succeeded(first.id, T0, { savedMethodId: "card-9" }))
      const renewal = yield* repo.createOrder(order(buyer, { renewal: true }))
      const canceled = yield* repo.settle({
        orderId: renewal.id,
        paymentId: "pay-renewal",
        status: "canceled",
        now: T0,
        forgetMethod: true
      })
      expect(Option.map(canceled, (s) => [s.changed, s.order.status, s.order.paidAt])).toEqual(
        Option.some([true, "canceled", null])
      )
      expect(Option.map(yield* repo.plus(buyer), (p) => p.paymentMethodId)).toEqual(Option.some(null))
    })
  )

  it.effect("boost slots: applied one at a time, none when all are used, freed only by their owner", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const { guildId, owner } = yield* arrange("Boosted")
      const other = yield* user("billing_other")
      const slotIds = yield* boostSlots(repo, owner, 2)
      expect((yield* repo.slots(owner, T0)).map((s) => s.id).sort()).toEqual([...slotIds].sort())
      const applied = yield* Effect.all(
        [repo.applyBoost(owner, guildId, T0), repo.applyBoost(owner, guildId, T0), repo.applyBoost(owner, guildId, T0)],
        { concurrency: "unbounded" }
      )
      expect(applied.filter(Option.isSome)).toHaveLength(2)
      const boosts = yield* repo.guildBoosts(guildId, T0)
      expect(boosts).toHaveLength(2)
      const first = must(boosts[0])
      expect(first).toMatchObject({ userId: owner, guildId })
      expect(yield* repo.releaseBoost(other, guildId, first.id)).toBe("not_yours")
      expect(yield* repo.releaseBoost(owner, yield* ids.next, first.id)).toBe("unknown")
      expect(yield* repo.releaseBoost(owner, guildId, first.id)).toBe("released")
      expect(yield* repo.releaseBoost(owner, guildId, first.id)).toBe("unknown")
      expect(yield* repo.guildBoosts(guildId, T0)).toHaveLength(1)
      // the freed slot is still the owner's and applies again
      expect(Option.map(yield* repo.applyBoost(owner, guildId, T0), (s) => s.id)).toEqual(Option.some(first.id))
    })
  )

  it.effect("expiry frees applied slots once their term ends, once, and they stop counting", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const { guildId, owner } = yield* arrange("Expiring")
      yield* boostSlots(repo, owner, 1)
      yield* repo.applyBoost(owner, guildId, T0)
      const end = Terms.addMonths(T0, 1)
      expect(yield* repo.guildBoosts(guildId, end)).toHaveLength(0)
      const after = DateTime.makeUnsafe(ms(end) + 1000)
      // other suites' slots may expire in the same call: look for this guild only
      const freed = yield* repo.expireBoosts(after, 10_000)
      expect(freed.filter((id) => id === guildId)).toEqual([guildId])
      expect((yield* repo.expireBoosts(after, 10_000)).filter((id) => id === guildId)).toEqual([])
      expect(yield* repo.slots(owner, after)).toHaveLength(0)
      expect(yield* repo.applyBoost(owner, guildId, after)).toEqual(Option.none())
    })
  )

  it.effect("staff grants extend Plus and create slots, each recorded with the staff member", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const staff = yield* user("billing_staff")
      const target = yield* user("billing_target")
      const grant = (kind: "plus" | "boosts", months: number, count: number) =>
        Effect.map(ids.next, (id) => ({ id, staffId: staff, userId: target, kind, months, count, createdAt: T0 }))
      const until = yield* repo.grantPlus(yield* grant("plus", 2, 0), T0)
      expect(ms(until)).toBe(ms(Terms.addMonths(T0, 2)))
      const again = yield* repo.grantPlus(yield* grant("plus", 1, 0), T0)
      expect(ms(again)).toBe(ms(Terms.addMonths(until, 1)))
      const slotIds = [yield* ids.next, yield* ids.next, yield* ids.next]
      expect(yield* repo.grantBoosts(yield* grant("boosts", 3, 3), slotIds, T0)).toBe(3)
      expect(yield* repo.slots(target, T0)).toHaveLength(3)
      const recorded = yield* repo.grantsTo(target)
      expect(recorded.map((g) => [g.kind, g.months, g.count, g.staffId])).toEqual(
        expect.arrayContaining([
          ["plus", 2, 0, staff],
          ["plus", 1, 0, staff],
          ["boosts", 3, 3, staff]
        ])
      )
      expect(recorded).toHaveLength(3)
    })
  )

  it.effect(
    "renewals: a due subscription with a saved card is claimed by one caller, again only after the retry time",
    () =>
      Effect.gen(function* () {
        const repo = yield* BillingRepo
        const buyer = yield* user("billing_renew")
        const first = yield* repo.createOrder(order(buyer))
        yield* repo.settle(succeeded(first.id, T0, { savedMethodId: "card-r" }))
        const end = Option.getOrThrow(yield* repo.plus(buyer)).premiumUntil
        const claim = (now: DateTime.Utc, retryBefore: DateTime.Utc) =>
          Effect.map(
            repo.claimRenewals({
              now,
              dueBefore: DateTime.makeUnsafe(ms(now) + 3 * 86_400_000),
              endedAfter: DateTime.makeUnsafe(ms(now) - 3 * 86_400_000),
              retryBefore,
              limit: 10_000
            }),
            (claimed) => claimed.filter((p) => p.userId === buyer)
          )
        // too early: more than three days left
        expect(yield* claim(later(1), later(1))).toEqual([])
        const due = DateTime.makeUnsafe(ms(end) - 86_400_000)
        const claims = yield* Effect.all([claim(due, due), claim(due, due)], { concurrency: "unbounded" })
        expect(claims.flat().map((p) => p.paymentMethodId)).toEqual(["card-r"])
        // stamped: not again until the retry time has passed
        expect(yield* claim(due, due)).toEqual([])
        expect((yield* claim(due, DateTime.makeUnsafe(ms(due) + 1))).map((p) => p.userId)).toEqual([buyer])
      })
  )

  it.effect("money counts: active Plus, boost slots, and what was paid since the month start", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const far = DateTime.makeUnsafe(Date.UTC(2031, 5, 1))
      const before = yield* repo.money(far, far)
      const buyer = yield* user("billing_money")
      const paid = yield* repo.createOrder(order(buyer, { amountRub: 1990, months: 60 }))
      yield* repo.settle(succeeded(paid.id, far))
      yield* boostSlots(repo, buyer, 1, 100)
      const after = yield* repo.money(DateTime.makeUnsafe(ms(far) + 1000), far)
      expect(after.plusActive - before.plusActive).toBe(1)
      expect(after.paidMonthRub - before.paidMonthRub).toBe(1990)
      expect(after.boosts - before.boosts).toBe(1)
    })
  )

  it.effect("forget: orders kept without the phone, Plus and slots gone, applied guilds answered once", () =>
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const { guildId, owner } = yield* arrange("Forgotten")
      const bystander = yield* user("billing_bystander")
      const paid = yield* repo.createOrder(order(owner))
      yield* repo.settle(succeeded(paid.id, T0, { savedMethodId: "pm-forgotten" }))
      const kept = yield* repo.createOrder(order(bystander))
      yield* repo.settle(succeeded(kept.id, T0, { savedMethodId: "pm-kept" }))
      yield* boostSlots(repo, owner, 2)
      yield* repo.applyBoost(owner, guildId, T0)
      const before = yield* repo.money(T0, T0)

      expect(yield* repo.forget(owner)).toEqual([guildId])
      const orders = [...(yield* repo.orders(owner, 10))].sort((a, b) => b.amountRub - a.amountRub)
      expect(orders.map((o) => [o.status, o.amountRub, o.phone])).toEqual([
        ["succeeded", 199, ""],
        ["succeeded", 149, ""]
      ])
      expect(orders[0]?.id).toBe(paid.id)
      expect(yield* repo.plus(owner)).toEqual(Option.none())
      expect(yield* repo.slots(owner, T0)).toEqual([])
      expect(yield* repo.guildBoosts(guildId, T0)).toEqual([])
      const after = yield* repo.money(T0, T0)
      expect(before.plusActive - after.plusActive).toBe(1)
      expect(before.boosts - after.boosts).toBe(2)
      expect(after.paidMonthRub).toBe(before.paidMonthRub)
      // another user's records are untouched; a second run finds nothing
      expect(Option.map(yield* repo.plus(bystander), (p) => [p.paymentMethodId, p.receiptPhone])).toEqual(
        Option.some(["pm-kept", "79001234567"])
      )
      expect((yield* repo.orders(bystander, 10)).map((o) => o.phone)).toEqual(["79001234567"])
      expect(yield* repo.forget(owner)).toEqual([])
    })
  )
}
