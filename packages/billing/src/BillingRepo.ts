/**
 * The port to billing's tables (orders, Plus, boost slots, staff grants) and its in-memory
 * adapter. Money state is settled here, never by read-then-write in the service:
 *
 * - `settle` moves an order out of `pending` and grants what it bought in one step (on
 *   PostgreSQL: one transaction whose conditional `UPDATE … WHERE status = 'pending'` lets exactly
 *   one of any number of concurrent notifications through; a final status never changes again).
 * - `applyBoost` takes one free slot in one statement (`FOR UPDATE SKIP LOCKED`).
 * - `claimRenewals` and `expireBoosts` hand each due row to one caller, whichever node asks.
 */
import type { Snowflake } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Ref } from "effect"
import type { Kind } from "./Plans.ts"
import * as Terms from "./Terms.ts"

/** An order's phone once its account is erased. */
export const ERASED_PHONE = ""

export type OrderStatus = "pending" | "succeeded" | "canceled"

export interface NewOrder {
  readonly id: string
  readonly userId: Snowflake.Snowflake
  readonly planId: string
  readonly kind: Kind
  readonly months: number
  readonly amountRub: number
  readonly phone: string
  /** A renewal charged from a saved method (its id is derived from the term, so a retry finds it). */
  readonly renewal: boolean
  readonly createdAt: DateTime.Utc
}

export interface Order extends NewOrder {
  readonly status: OrderStatus
  readonly providerPaymentId: string | null
  readonly paidAt: DateTime.Utc | null
}

export interface PlusState {
  readonly userId: Snowflake.Snowflake
  readonly premiumUntil: DateTime.Utc
  /** The saved card's token at the provider (renewals), if any. */
  readonly paymentMethodId: string | null
  readonly receiptPhone: string | null
}

export interface BoostSlot {
  readonly id: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
  readonly guildId: Snowflake.Snowflake | null
  readonly appliedAt: DateTime.Utc | null
  readonly endsAt: DateTime.Utc
}

export interface StaffGrant {
  readonly id: Snowflake.Snowflake
  readonly staffId: Snowflake.Snowflake
  readonly userId: Snowflake.Snowflake
  readonly kind: "plus" | "boosts"
  readonly months: number
  readonly count: number
  readonly createdAt: DateTime.Utc
}

export type Settlement =
  | {
      readonly orderId: string
      readonly paymentId: string
      readonly status: "succeeded"
      readonly now: DateTime.Utc
      /** Set when the user saved the card (Plus): kept for renewals. */
      readonly savedMethodId: string | null
      /** Ids for the boost slots a boost order creates (one per slot). */
      readonly boostIds: ReadonlyArray<Snowflake.Snowflake>
    }
  | {
      readonly orderId: string
      readonly paymentId: string
      readonly status: "canceled"
      readonly now: DateTime.Utc
      /** The user withdrew consent for autopayments: forget the saved card. */
      readonly forgetMethod: boolean
    }

export interface Settled {
  /** True for the one call that moved the order out of pending. */
  readonly changed: boolean
  readonly order: Order
}

export type Release = "released" | "not_yours" | "unknown"

export interface MoneyCounts {
  readonly plusActive: number
  /** Boost slots whose term has not ended, applied or not. */
  readonly boosts: number
  readonly paidMonthRub: number
}

export class BillingRepo extends Context.Service<
  BillingRepo,
  {
    /** Inserts the order; an order with that id already there is answered as it is (renewal retries). */
    readonly createOrder: (order: NewOrder) => Effect.Effect<Order>
    readonly attachPayment: (orderId: string, paymentId: string) => Effect.Effect<void>
    readonly findOrder: (orderId: string) => Effect.Effect<Option.Option<Order>>
    /** Moves a pending order to its final status and grants what it bought, once; none for an unknown order. */
    readonly settle: (settlement: Settlement) => Effect.Effect<Option.Option<Settled>>
    readonly orders: (userId: Snowflake.Snowflake, limit: number) => Effect.Effect<ReadonlyArray<Order>>
    readonly plus: (userId: Snowflake.Snowflake) => Effect.Effect<Option.Option<PlusState>>
    /** The user's slots whose term has not ended, oldest first. */
    readonly slots: (userId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<ReadonlyArray<BoostSlot>>
    /** Applies one free slot of the user (the one ending last) to the guild; none when no slot is free. */
    readonly applyBoost: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      now: DateTime.Utc
    ) => Effect.Effect<Option.Option<BoostSlot>>
    /** Frees the slot from the guild (it stays the user's until its term ends). */
    readonly releaseBoost: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      boostId: Snowflake.Snowflake
    ) => Effect.Effect<Release>
    /** Active slots applied to the guild, oldest application first. */
    readonly guildBoosts: (guildId: Snowflake.Snowflake, now: DateTime.Utc) => Effect.Effect<ReadonlyArray<BoostSlot>>
    /** Staff give Plus: extends it by `months` and records the grant in the same step. */
    readonly grantPlus: (grant: StaffGrant, now: DateTime.Utc) => Effect.Effect<DateTime.Utc>
    /** Staff give `ids.length` boost slots of `months`, recorded with the grant. */
    readonly grantBoosts: (
      grant: StaffGrant,
      ids: ReadonlyArray<Snowflake.Snowflake>,
      now: DateTime.Utc
    ) => Effect.Effect<number>
    /** Grants to a user, newest first (the staff audit trail of billing). */
    readonly grantsTo: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<StaffGrant>>
    /**
     * Plus subscriptions with a saved card ending before `dueBefore` (and not ended before
     * `now - grace`) whose last attempt is older than `retryBefore`: each handed to one caller,
     * its attempt stamped `now`.
     */
    readonly claimRenewals: (claim: {
      readonly now: DateTime.Utc
      readonly dueBefore: DateTime.Utc
      readonly endedAfter: DateTime.Utc
      readonly retryBefore: DateTime.Utc
      readonly limit: number
    }) => Effect.Effect<ReadonlyArray<PlusState>>
    /** Frees applied slots whose term has ended; answers the guilds they left (once each slot). */
    readonly expireBoosts: (now: DateTime.Utc, limit: number) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /**
     * A deleted account's erasure, in one step: its orders stay (accounting) with the receipt phone
     * erased (`ERASED_PHONE`), its Plus (term, saved card token, receipt phone) and its boost slots
     * are deleted. Answers the guilds its slots were applied to; running it again answers none.
     */
    readonly forget: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<Snowflake.Snowflake>>
    /** Counts for the statistics' `money` keys. */
    readonly money: (now: DateTime.Utc, monthStart: DateTime.Utc) => Effect.Effect<MoneyCounts>
  }
>()("@veche/billing/BillingRepo") {
  static readonly layerMemory: Layer.Layer<BillingRepo> = Layer.effect(
    BillingRepo,
    Effect.gen(function* () {
      interface State {
        readonly orders: ReadonlyMap<string, Order>
        readonly plus: ReadonlyMap<string, PlusState & { readonly attemptAt: DateTime.Utc | null }>
        readonly slots: ReadonlyMap<string, BoostSlot>
        readonly grants: ReadonlyArray<StaffGrant>
      }
      const state = yield* Ref.make<State>({ orders: new Map(), plus: new Map(), slots: new Map(), grants: [] })
      const active = (slot: BoostSlot, now: DateTime.Utc) => DateTime.isGreaterThan(slot.endsAt, now)
      const withPlus = (
        s: State,
        userId: Snowflake.Snowflake,
        months: number,
        now: DateTime.Utc,
        method?: { id: string; phone: string }
      ) => {
        const current = s.plus.get(userId)
        const until = Terms.extend(current?.premiumUntil ?? null, now, months)
        const next = {
          userId,
          premiumUntil: until,
          paymentMethodId: method?.id ?? current?.paymentMethodId ?? null,
          receiptPhone: method?.phone ?? current?.receiptPhone ?? null,
          attemptAt: null
        }
        return { until, plus: new Map(s.plus).set(userId, next) }
      }
      const withSlots = (
        s: State,
        userId: Snowflake.Snowflake,
        ids: ReadonlyArray<Snowflake.Snowflake>,
        months: number,
        now: DateTime.Utc
      ) => {
        const slots = new Map(s.slots)
        for (const id of ids)
          slots.set(id, { id, userId, guildId: null, appliedAt: null, endsAt: Terms.addMonths(now, months) })
        return slots
      }

      return BillingRepo.of({
        createOrder: (order) =>
          Ref.modify(state, (s): [Order, State] => {
            const existing = s.orders.get(order.id)
            if (existing !== undefined) return [existing, s]
            const created: Order = { ...order, status: "pending", providerPaymentId: null, paidAt: null }
            return [created, { ...s, orders: new Map(s.orders).set(order.id, created) }]
          }),
        attachPayment: (orderId, paymentId) =>
          Ref.update(state, (s) => {
            const order = s.orders.get(orderId)
            if (order === undefined || order.providerPaymentId !== null) return s
            return { ...s, orders: new Map(s.orders).set(orderId, { ...order, providerPaymentId: paymentId }) }
          }),
        findOrder: (orderId) => Effect.map(Ref.get(state), (s) => Option.fromNullishOr(s.orders.get(orderId))),
        settle: (settlement) =>
          Ref.modify(state, (s): [Option.Option<Settled>, State] => {
            const order = s.orders.get(settlement.orderId)
            if (order === undefined) return [Option.none(), s]
            if (order.status !== "pending") return [Option.some({ changed: false, order }), s]
            const settled: Order = {
              ...order,
              status: settlement.status,
              providerPaymentId: order.providerPaymentId ?? settlement.paymentId,
              paidAt: settlement.status === "succeeded" ? settlement.now : null
            }
            let next: State = { ...s, orders: new Map(s.orders).set(order.id, settled) }
            if (settlement.status === "succeeded") {
              if (order.kind === "plus") {
                const method =
                  settlement.savedMethodId === null ? undefined : { id: settlement.savedMethodId, phone: order.phone }
                next = { ...next, plus: withPlus(next, order.userId, order.months, settlement.now, method).plus }
              } else {
                next = {
                  ...next,
                  slots: withSlots(next, order.userId, settlement.boostIds, order.months, settlement.now)
                }
              }
            } else if (settlement.forgetMethod) {
              const plus = next.plus.get(order.userId)
              if (plus !== undefined) {
                next = { ...next, plus: new Map(next.plus).set(order.userId, { ...plus, paymentMethodId: null }) }
              }
            }
            return [Option.some({ changed: true, order: settled }), next]
          }),
        orders: (userId, limit) =>
          Effect.map(Ref.get(state), (s) =>
            [...s.orders.values()]
              .filter((order) => order.userId === userId)
              .sort(
                (a, b) =>
                  DateTime.toEpochMillis(b.createdAt) - DateTime.toEpochMillis(a.createdAt) || (a.id < b.id ? 1 : -1)
              )
              .slice(0, limit)
          ),
        plus: (userId) =>
          Effect.map(Ref.get(state), (s) =>
            Option.map(Option.fromNullishOr(s.plus.get(userId)), ({ attemptAt: _, ...plus }) => plus)
          ),
        slots: (userId, now) =>
          Effect.map(Ref.get(state), (s) =>
            [...s.slots.values()].filter((slot) => slot.userId === userId && active(slot, now)).sort(byId)
          ),
        applyBoost: (userId, guildId, now) =>
          Ref.modify(state, (s): [Option.Option<BoostSlot>, State] => {
            const free = [...s.slots.values()]
              .filter((slot) => slot.userId === userId && slot.guildId === null && active(slot, now))
              .sort((a, b) => DateTime.toEpochMillis(b.endsAt) - DateTime.toEpochMillis(a.endsAt) || byId(a, b))[0]
            if (free === undefined) return [Option.none(), s]
            const applied: BoostSlot = { ...free, guildId, appliedAt: now }
            return [Option.some(applied), { ...s, slots: new Map(s.slots).set(free.id, applied) }]
          }),
        releaseBoost: (userId, guildId, boostId) =>
          Ref.modify(state, (s): [Release, State] => {
            const slot = s.slots.get(boostId)
            if (slot === undefined || slot.guildId !== guildId) return ["unknown", s]
            if (slot.userId !== userId) return ["not_yours", s]
            return [
              "released",
              { ...s, slots: new Map(s.slots).set(boostId, { ...slot, guildId: null, appliedAt: null }) }
            ]
          }),
        guildBoosts: (guildId, now) =>
          Effect.map(Ref.get(state), (s) =>
            [...s.slots.values()]
              .filter((slot) => slot.guildId === guildId && active(slot, now))
              .sort(
                (a, b) =>
                  DateTime.toEpochMillis(a.appliedAt ?? now) - DateTime.toEpochMillis(b.appliedAt ?? now) || byId(a, b)
              )
          ),
        grantPlus: (grant, now) =>
          Ref.modify(state, (s): [DateTime.Utc, State] => {
            const { until, plus } = withPlus(s, grant.userId, grant.months, now)
            return [until, { ...s, plus, grants: [grant, ...s.grants] }]
          }),
        grantBoosts: (grant, ids, now) =>
          Ref.modify(state, (s): [number, State] => [
            ids.length,
            { ...s, slots: withSlots(s, grant.userId, ids, grant.months, now), grants: [grant, ...s.grants] }
          ]),
        grantsTo: (userId) => Effect.map(Ref.get(state), (s) => s.grants.filter((grant) => grant.userId === userId)),
        claimRenewals: (claim) =>
          Ref.modify(state, (s): [ReadonlyArray<PlusState>, State] => {
            const due = [...s.plus.values()]
              .filter(
                (plus) =>
                  plus.paymentMethodId !== null &&
                  DateTime.isLessThan(plus.premiumUntil, claim.dueBefore) &&
                  DateTime.isGreaterThan(plus.premiumUntil, claim.endedAfter) &&
                  (plus.attemptAt === null || DateTime.isLessThan(plus.attemptAt, claim.retryBefore))
              )
              .slice(0, claim.limit)
            const plus = new Map(s.plus)
            for (const row of due) plus.set(row.userId, { ...row, attemptAt: claim.now })
            return [due.map(({ attemptAt: _, ...row }) => row), { ...s, plus }]
          }),
        expireBoosts: (now, limit) =>
          Ref.modify(state, (s): [ReadonlyArray<Snowflake.Snowflake>, State] => {
            const due = [...s.slots.values()]
              .filter((slot) => slot.guildId !== null && !active(slot, now))
              .slice(0, limit)
            const slots = new Map(s.slots)
            for (const slot of due) slots.set(slot.id, { ...slot, guildId: null, appliedAt: null })
            return [due.flatMap((slot) => (slot.guildId === null ? [] : [slot.guildId])), { ...s, slots }]
          }),
        forget: (userId) =>
          Ref.modify(state, (s): [ReadonlyArray<Snowflake.Snowflake>, State] => {
            const orders = new Map(s.orders)
            for (const order of s.orders.values())
              if (order.userId === userId) orders.set(order.id, { ...order, phone: ERASED_PHONE })
            const plus = new Map(s.plus)
            plus.delete(userId)
            const slots = new Map(s.slots)
            const freed: Array<Snowflake.Snowflake> = []
            for (const slot of s.slots.values()) {
              if (slot.userId !== userId) continue
              slots.delete(slot.id)
              if (slot.guildId !== null) freed.push(slot.guildId)
            }
            return [freed, { ...s, orders, plus, slots }]
          }),
        money: (now, monthStart) =>
          Effect.map(Ref.get(state), (s) => ({
            plusActive: [...s.plus.values()].filter((plus) => DateTime.isGreaterThan(plus.premiumUntil, now)).length,
            boosts: [...s.slots.values()].filter((slot) => active(slot, now)).length,
            paidMonthRub: [...s.orders.values()]
              .filter(
                (order) =>
                  order.status === "succeeded" &&
                  order.paidAt !== null &&
                  !DateTime.isLessThan(order.paidAt, monthStart)
              )
              .reduce((sum, order) => sum + order.amountRub, 0)
          }))
      })
    })
  )
}

/** Snowflakes in id order (same length strings compare as numbers; shorter ones first). */
const byId = (a: { readonly id: string }, b: { readonly id: string }) =>
  a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
