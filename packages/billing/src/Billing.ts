/**
 * Plus and boosts: what is for sale, starting a payment, settling the provider's notifications
 * (re-read from the provider, granted once), the user's status, boost slots on guilds, staff
 * grants, and the counts the statistics show. Money state lives in BillingRepo; every grant is
 * settled there in one step with the payment that pays for it.
 */
import { MoscowDay, Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Duration, Effect, Layer, Option } from "effect"
import { BillingConfig } from "./BillingConfig.ts"
import {
  BadPhone,
  NoFreeBoost,
  NotGuildMember,
  NotStaff,
  NotYourBoost,
  PaymentsNotConnected,
  type ProviderUnavailable,
  UnknownBoost,
  UnknownPlan,
  UnknownUser,
  UntrustedSource
} from "./BillingErrors.ts"
import {
  BillingRepo,
  type BoostSlot,
  type MoneyCounts,
  type Order,
  type PlusState,
  type StaffGrant
} from "./BillingRepo.ts"
import { BillingStaff } from "./BillingStaff.ts"
import { BoostGuilds } from "./BoostGuilds.ts"
import { Entitlements } from "./Entitlements.ts"
import * as Limits from "./Limits.ts"
import { PaymentProvider, type ProviderPayment } from "./PaymentProvider.ts"
import type { Plan } from "./Plans.ts"
import * as ReceiptPhone from "./ReceiptPhone.ts"

export interface PlansView {
  readonly enabled: boolean
  readonly plans: ReadonlyArray<Plan>
  readonly tiers: ReadonlyArray<Limits.GuildLimits>
  readonly plus: Limits.UserLimits
  readonly free: Limits.UserLimits
}

export interface Status {
  readonly plus: { readonly active: boolean; readonly premiumUntil: DateTime.Utc | null; readonly autorenew: boolean }
  readonly boosts: ReadonlyArray<BoostSlot>
  readonly payments: ReadonlyArray<Order>
}

export interface GuildPremium {
  readonly guildId: Snowflake.Snowflake
  readonly tier: Limits.Tier
  readonly boostCount: number
  readonly boosts: ReadonlyArray<BoostSlot>
  readonly nextTierAt: number | null
}

export interface PersonalRecord {
  readonly plus: Option.Option<PlusState>
  readonly boosts: ReadonlyArray<BoostSlot>
  readonly payments: ReadonlyArray<Order>
}

/** Every payment of a user goes in their export: more than any account makes. */
export const EXPORT_PAYMENTS = 100_000

/** What a notification did (the webhook answers 200 whatever it is). */
export type Outcome = "granted" | "canceled" | "unchanged" | "pending" | "ignored"

/** Payments shown in the status, newest first. */
export const PAYMENTS_SHOWN = 50
/** Renewals and expiries handled per statement. */
export const JOB_BATCH = 100
/** A renewal whose charge did not settle is tried again after this long. */
export const RENEW_RETRY = Duration.hours(12)

/** The amount as the provider writes it: whole roubles with two decimals. */
export const amountValue = (rub: number): string => `${rub}.00`

export class Billing extends Context.Service<
  Billing,
  {
    readonly plans: Effect.Effect<PlansView>
    readonly checkout: (
      userId: Snowflake.Snowflake,
      planId: string,
      phone: string
    ) => Effect.Effect<
      { readonly confirmationUrl: string },
      PaymentsNotConnected | UnknownPlan | BadPhone | ProviderUnavailable
    >
    /**
     * A provider notification about `paymentId`: nothing in the body is believed; the payment is
     * read from the provider and settled from that. Fails only when the source is untrusted or
     * the provider cannot be asked (the provider then delivers again).
     */
    readonly notify: (
      paymentId: string,
      source: string | null
    ) => Effect.Effect<Outcome, UntrustedSource | ProviderUnavailable>
    readonly status: (userId: Snowflake.Snowflake) => Effect.Effect<Status>
    /** The user's limits now (free or Plus). */
    readonly userLimits: (userId: Snowflake.Snowflake) => Effect.Effect<Limits.UserLimits>
    /** The guild's tier and boosts now. */
    readonly guildPremium: (guildId: Snowflake.Snowflake) => Effect.Effect<GuildPremium>
    /** The same for a member of the guild. */
    readonly premiumFor: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<GuildPremium, NotGuildMember>
    readonly applyBoost: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake
    ) => Effect.Effect<BoostSlot, NotGuildMember | NoFreeBoost>
    readonly releaseBoost: (
      userId: Snowflake.Snowflake,
      guildId: Snowflake.Snowflake,
      boostId: Snowflake.Snowflake
    ) => Effect.Effect<void, NotYourBoost | UnknownBoost>
    readonly grantPlus: (
      staffId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      months: number
    ) => Effect.Effect<DateTime.Utc, NotStaff | UnknownUser>
    readonly grantBoosts: (
      staffId: Snowflake.Snowflake,
      userId: Snowflake.Snowflake,
      count: number,
      months: number
    ) => Effect.Effect<number, NotStaff | UnknownUser>
    /** Staff grants to a user, newest first (who gave what and when). */
    readonly grantsTo: (userId: Snowflake.Snowflake) => Effect.Effect<ReadonlyArray<StaffGrant>>
    /** The statistics' `money` counts (the paid sum over the current Moscow month). */
    readonly money: Effect.Effect<MoneyCounts>
    /** What billing keeps about the user, for their data export (every payment, Plus, active slots). */
    readonly personalData: (userId: Snowflake.Snowflake) => Effect.Effect<PersonalRecord>
    /**
     * A deleted account's erasure: payments kept for accounting without the receipt phone, Plus and
     * boost slots gone (their guilds told of the lower tier). Running it again does no harm.
     */
    readonly forget: (userId: Snowflake.Snowflake) => Effect.Effect<void>
    /** One round of renewals: charges saved cards of Plus ending soon; answers how many were tried. */
    readonly renew: Effect.Effect<number>
    /** One round of boost expiry: frees ended slots and tells their guilds; answers how many. */
    readonly expire: Effect.Effect<number>
  }
>()("@veche/billing/Billing") {
  static readonly layer: Layer.Layer<
    Billing,
    never,
    | BillingRepo
    | BillingConfig
    | Entitlements
    | PaymentProvider
    | BoostGuilds
    | BillingStaff
    | Snowflake.SnowflakeGenerator
  > = Layer.effect(
    Billing,
    Effect.gen(function* () {
      const repo = yield* BillingRepo
      const config = yield* BillingConfig
      const provider = yield* PaymentProvider
      const guilds = yield* BoostGuilds
      const staff = yield* BillingStaff
      const entitlements = yield* Entitlements
      const ids = yield* Snowflake.SnowflakeGenerator
      const plusLimits = Limits.plus(config.plusUploadBytes)

      /** A grant comes from staff and goes to an account that exists (403 before 404, as the API orders them). */
      const requireGrantee = Effect.fnUntraced(function* (staffId: Snowflake.Snowflake, userId: Snowflake.Snowflake) {
        if (!(yield* staff.isStaff(staffId))) return yield* new NotStaff()
        if (!(yield* staff.accountExists(userId))) return yield* new UnknownUser()
      })

      /** Settles the order from the provider's own account of the payment. */
      const settle = Effect.fnUntraced(function* (order: Order, payment: ProviderPayment) {
        // The provider's object must be the one this order created: same id (once known), amount, currency.
        if (
          (order.providerPaymentId !== null && order.providerPaymentId !== payment.id) ||
          payment.amountValue !== amountValue(order.amountRub) ||
          payment.currency !== "RUB"
        ) {
          yield* Effect.logWarning(`billing: payment ${payment.id} does not match order ${order.id}; ignored`)
          return "ignored" as const
        }
        const now = yield* DateTime.now
        if (payment.status === "succeeded") {
          const boostIds = order.kind === "boost" ? [yield* ids.next] : []
          const settled = yield* repo.settle({
            orderId: order.id,
            paymentId: payment.id,
            status: "succeeded",
            now,
            savedMethodId: order.kind === "plus" && config.autorenew ? payment.savedMethodId : null,
            boostIds
          })
          return Option.match(settled, {
            onNone: () => "ignored" as const,
            onSome: ({ changed }) => (changed ? ("granted" as const) : ("unchanged" as const))
          })
        }
        if (payment.status === "canceled") {
          const settled = yield* repo.settle({
            orderId: order.id,
            paymentId: payment.id,
            status: "canceled",
            now,
            forgetMethod: payment.cancellationReason === "permission_revoked"
          })
          return Option.match(settled, {
            onNone: () => "ignored" as const,
            onSome: ({ changed }) => (changed ? ("canceled" as const) : ("unchanged" as const))
          })
        }
        return "pending" as const
      })

      const guildPremiumUntraced = Effect.fnUntraced(function* (guildId: Snowflake.Snowflake) {
        const boosts = yield* repo.guildBoosts(guildId, yield* DateTime.now)
        return {
          guildId,
          tier: Limits.tierOf(boosts.length),
          boostCount: boosts.length,
          boosts,
          nextTierAt: Limits.nextTierAt(boosts.length)
        }
      })

      const plusPlan = [...config.plans].filter((plan) => plan.Kind === "plus").sort((a, b) => a.Months - b.Months)[0]

      const renewOne = Effect.fnUntraced(function* (plus: {
        readonly userId: Snowflake.Snowflake
        readonly premiumUntil: DateTime.Utc
        readonly paymentMethodId: string | null
        readonly receiptPhone: string | null
      }) {
        if (plusPlan === undefined || plus.paymentMethodId === null) return
        const now = yield* DateTime.now
        // One order per term: a retry (this node or another) finds it and reuses its idempotence key.
        const order = yield* repo.createOrder({
          id: `renew-${plus.userId}-${DateTime.toEpochMillis(plus.premiumUntil)}`,
          userId: plus.userId,
          planId: plusPlan.ID,
          kind: "plus",
          months: plusPlan.Months,
          amountRub: plusPlan.PriceRub,
          phone: plus.receiptPhone ?? "",
          renewal: true,
          createdAt: now
        })
        if (order.status !== "pending") return
        const payment = yield* provider.charge({
          orderId: order.id,
          userId: order.userId,
          planId: order.planId,
          amountRub: order.amountRub,
          description: plusPlan.Name,
          phone: order.phone,
          paymentMethodId: plus.paymentMethodId
        })
        yield* repo.attachPayment(order.id, payment.id)
        yield* settle(order, payment)
      })

      return Billing.of({
        plans: Effect.succeed({
          enabled: provider.enabled,
          plans: config.plans,
          tiers: Limits.TIERS,
          plus: plusLimits,
          free: Limits.FREE
        }),
        checkout: Spans.fn("Billing.checkout")(function* (userId, planId, phone) {
          if (!provider.enabled) return yield* new PaymentsNotConnected()
          const plan = config.plans.find((candidate) => candidate.ID === planId)
          if (plan === undefined) return yield* new UnknownPlan()
          const receiptPhone = ReceiptPhone.normalize(phone)
          if (Option.isNone(receiptPhone)) return yield* new BadPhone()
          const order = yield* repo.createOrder({
            id: yield* ids.next,
            userId,
            planId: plan.ID,
            kind: plan.Kind,
            months: plan.Months,
            amountRub: plan.PriceRub,
            phone: receiptPhone.value,
            renewal: false,
            createdAt: yield* DateTime.now
          })
          const started = yield* provider.create({
            orderId: order.id,
            userId,
            planId: plan.ID,
            amountRub: plan.PriceRub,
            description: plan.Name,
            phone: receiptPhone.value,
            savePaymentMethod: plan.Kind === "plus" && config.autorenew
          })
          yield* repo.attachPayment(order.id, started.paymentId)
          return { confirmationUrl: started.confirmationUrl }
        }),
        notify: Spans.fn("Billing.notify")(function* (paymentId, source) {
          if (!provider.trustsSource(source)) return yield* new UntrustedSource()
          const payment = yield* provider.get(paymentId).pipe(
            // No provider: no payment of ours can exist.
            Effect.catchTag("PaymentsNotConnected", () => Effect.succeed(Option.none<ProviderPayment>()))
          )
          if (Option.isNone(payment)) return "ignored" as const
          const orderId = payment.value.metadata.order_id
          if (orderId === undefined) return "ignored" as const
          const order = yield* repo.findOrder(orderId)
          if (Option.isNone(order)) return "ignored" as const
          return yield* settle(order.value, payment.value)
        }),
        status: Spans.fn("Billing.status")(function* (userId) {
          const now = yield* DateTime.now
          const plus = yield* repo.plus(userId)
          const premiumUntil = Option.getOrNull(Option.map(plus, (p) => p.premiumUntil))
          return {
            plus: {
              active: premiumUntil !== null && DateTime.isGreaterThan(premiumUntil, now),
              premiumUntil,
              autorenew: config.autorenew && provider.enabled && Option.exists(plus, (p) => p.paymentMethodId !== null)
            },
            boosts: yield* repo.slots(userId, now),
            payments: yield* repo.orders(userId, PAYMENTS_SHOWN)
          }
        }),
        userLimits: entitlements.userLimits,
        guildPremium: Spans.fn("Billing.guildPremium")(function* (guildId: Snowflake.Snowflake) {
          return yield* guildPremiumUntraced(guildId)
        }),
        premiumFor: Spans.fn("Billing.premiumFor")(function* (userId, guildId) {
          if (!(yield* guilds.isMember(userId, guildId))) return yield* new NotGuildMember()
          return yield* guildPremiumUntraced(guildId)
        }),
        applyBoost: Spans.fn("Billing.applyBoost")(function* (userId, guildId) {
          if (!(yield* guilds.isMember(userId, guildId))) return yield* new NotGuildMember()
          const applied = yield* repo.applyBoost(userId, guildId, yield* DateTime.now)
          if (Option.isNone(applied)) return yield* new NoFreeBoost()
          yield* guilds.premiumChanged(guildId)
          return applied.value
        }),
        releaseBoost: Spans.fn("Billing.releaseBoost")(function* (userId, guildId, boostId) {
          const released = yield* repo.releaseBoost(userId, guildId, boostId)
          if (released === "not_yours") return yield* new NotYourBoost()
          if (released === "unknown") return yield* new UnknownBoost()
          yield* guilds.premiumChanged(guildId)
        }),
        grantPlus: Spans.fn("Billing.grantPlus")(function* (staffId, userId, months) {
          yield* requireGrantee(staffId, userId)
          const now = yield* DateTime.now
          const until = yield* repo.grantPlus(
            { id: yield* ids.next, staffId, userId, kind: "plus", months, count: 0, createdAt: now },
            now
          )
          yield* staff.recordGrant({ staffId, userId, kind: "plus", months, count: 0, until })
          return until
        }),
        grantBoosts: Spans.fn("Billing.grantBoosts")(function* (staffId, userId, count, months) {
          yield* requireGrantee(staffId, userId)
          const now = yield* DateTime.now
          const slotIds: Array<Snowflake.Snowflake> = []
          for (let i = 0; i < count; i++) slotIds.push(yield* ids.next)
          const granted = yield* repo.grantBoosts(
            { id: yield* ids.next, staffId, userId, kind: "boosts", months, count, createdAt: now },
            slotIds,
            now
          )
          yield* staff.recordGrant({ staffId, userId, kind: "boosts", months, count, until: null })
          return granted
        }),
        grantsTo: (userId) => repo.grantsTo(userId),
        money: Effect.flatMap(DateTime.now, (now) => repo.money(now, MoscowDay.monthStart(now))),
        personalData: Spans.fn("Billing.personalData")(function* (userId) {
          return {
            plus: yield* repo.plus(userId),
            boosts: yield* repo.slots(userId, yield* DateTime.now),
            payments: yield* repo.orders(userId, EXPORT_PAYMENTS)
          }
        }),
        forget: Spans.fn("Billing.forget")(function* (userId) {
          const freed = yield* repo.forget(userId)
          yield* Effect.forEach(new Set(freed), (guildId) => guilds.premiumChanged(guildId), { discard: true })
        }),
        renew: Effect.gen(function* () {
          if (!provider.enabled || !config.autorenew) return 0
          const now = yield* DateTime.now
          const due = yield* repo.claimRenewals({
            now,
            dueBefore: DateTime.addDuration(now, config.renewBefore),
            endedAfter: DateTime.subtractDuration(now, config.renewBefore),
            retryBefore: DateTime.subtractDuration(now, RENEW_RETRY),
            limit: JOB_BATCH
          })
          // One user's failure (card declined, provider down) does not stop the others; the claim's
          // stamp makes the next try wait RENEW_RETRY.
          yield* Effect.forEach(
            due,
            (plus) =>
              renewOne(plus).pipe(
                Effect.catchCause((cause) => Effect.logWarning(`billing: renewal for ${plus.userId} failed`, cause))
              ),
            { discard: true }
          )
          return due.length
        }).pipe(Effect.withSpan("Billing.renew")),
        expire: Effect.gen(function* () {
          const guildIds = yield* repo.expireBoosts(yield* DateTime.now, JOB_BATCH)
          yield* Effect.forEach(new Set(guildIds), (guildId) => guilds.premiumChanged(guildId), { discard: true })
          return guildIds.length
        }).pipe(Effect.withSpan("Billing.expire"))
      })
    })
  )
}
