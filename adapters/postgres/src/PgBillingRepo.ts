/**
 * BillingRepo on PostgreSQL (`billing_orders`, `billing_plus`, `billing_boosts`,
 * `billing_grants`, migration 0025).
 *
 * - `settle` is one transaction: the conditional `UPDATE billing_orders … WHERE status =
 *   'pending'` lets exactly one of any number of concurrent notifications through, and the grant
 *   (Plus extended, boost slots created) commits with it or not at all.
 * - Plus is extended under the row's lock (a missing row is first inserted as "ends now", so two
 *   first purchases at once add up instead of overwriting each other); the new end is computed by
 *   `Terms.extend`, as the memory store does.
 * - Applying a boost, claiming renewals and expiring slots pick rows `FOR UPDATE SKIP LOCKED`: two
 *   callers never take the same row.
 */
import { BillingRepo, Terms } from "@veche/billing"
import { Snowflake } from "@veche/platform"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as DecodedRows from "./internal/DecodedRows.ts"

type Repo = BillingRepo.BillingRepo["Service"]

const id = (value: bigint) => Snowflake.Snowflake.make(String(value))
const utc = (value: Date) => DateTime.fromDateUnsafe(value)
const utcOrNull = (value: Date | null) => (value === null ? null : utc(value))

const OrderRow = Schema.Struct({
  id: Schema.String,
  user_id: Schema.BigInt,
  plan_id: Schema.String,
  kind: Schema.Literals(["plus", "boost"]),
  months: Schema.Int,
  amount_rub: Schema.Int,
  phone: Schema.String,
  renewal: Schema.Boolean,
  status: Schema.Literals(["pending", "succeeded", "canceled"]),
  provider_payment_id: Schema.NullOr(Schema.String),
  created_at: Schema.Date,
  paid_at: Schema.NullOr(Schema.Date)
})
const ORDER_COLUMNS =
  "id, user_id, plan_id, kind, months, amount_rub, phone, renewal, status, provider_payment_id, created_at, paid_at"

const toOrder = (row: typeof OrderRow.Type): BillingRepo.Order => ({
  id: row.id,
  userId: id(row.user_id),
  planId: row.plan_id,
  kind: row.kind,
  months: row.months,
  amountRub: row.amount_rub,
  phone: row.phone,
  renewal: row.renewal,
  status: row.status,
  providerPaymentId: row.provider_payment_id,
  createdAt: utc(row.created_at),
  paidAt: utcOrNull(row.paid_at)
})

const PlusRow = Schema.Struct({
  user_id: Schema.BigInt,
  premium_until: Schema.Date,
  payment_method_id: Schema.NullOr(Schema.String),
  receipt_phone: Schema.NullOr(Schema.String)
})
const PLUS_COLUMNS = "user_id, premium_until, payment_method_id, receipt_phone"

const toPlus = (row: typeof PlusRow.Type): BillingRepo.PlusState => ({
  userId: id(row.user_id),
  premiumUntil: utc(row.premium_until),
  paymentMethodId: row.payment_method_id,
  receiptPhone: row.receipt_phone
})

const SlotRow = Schema.Struct({
  id: Schema.BigInt,
  user_id: Schema.BigInt,
  guild_id: Schema.NullOr(Schema.BigInt),
  applied_at: Schema.NullOr(Schema.Date),
  ends_at: Schema.Date
})
const SLOT_COLUMNS = "id, user_id, guild_id, applied_at, ends_at"

const toSlot = (row: typeof SlotRow.Type): BillingRepo.BoostSlot => ({
  id: id(row.id),
  userId: id(row.user_id),
  guildId: row.guild_id === null ? null : id(row.guild_id),
  appliedAt: utcOrNull(row.applied_at),
  endsAt: utc(row.ends_at)
})

const GrantRow = Schema.Struct({
  id: Schema.BigInt,
  staff_id: Schema.BigInt,
  user_id: Schema.BigInt,
  kind: Schema.Literals(["plus", "boosts"]),
  months: Schema.Int,
  count: Schema.Int,
  created_at: Schema.Date
})

const toGrant = (row: typeof GrantRow.Type): BillingRepo.StaffGrant => ({
  id: id(row.id),
  staffId: id(row.staff_id),
  userId: id(row.user_id),
  kind: row.kind,
  months: row.months,
  count: row.count,
  createdAt: utc(row.created_at)
})

const GuildRow = Schema.Struct({ guild_id: Schema.BigInt })
const MoneyRow = Schema.Struct({ plus_active: Schema.Int, boosts: Schema.Int, paid: Schema.Int })
const OwnerRow = Schema.Struct({ user_id: Schema.BigInt, guild_id: Schema.NullOr(Schema.BigInt) })

export const layer: Layer.Layer<BillingRepo.BillingRepo, never, SqlClient.SqlClient> = Layer.effect(
  BillingRepo.BillingRepo,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const date = DateTime.toDateUtc
    const orderColumns = sql.unsafe(ORDER_COLUMNS)
    const plusColumns = sql.unsafe(PLUS_COLUMNS)
    const slotColumns = sql.unsafe(SLOT_COLUMNS)
    const orders = DecodedRows.of(OrderRow, toOrder)
    const plusRows = DecodedRows.of(PlusRow, toPlus)
    const slots = DecodedRows.of(SlotRow, toSlot)
    const grants = DecodedRows.of(GrantRow, toGrant)
    const guilds = DecodedRows.of(GuildRow, (row) => id(row.guild_id))
    const money = DecodedRows.of(MoneyRow, (row) => row)
    const owners = DecodedRows.of(OwnerRow, (row) => row)
    const run = (query: Effect.Effect<ReadonlyArray<unknown>, unknown>) => Effect.orDie(Effect.asVoid(query))
    const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      sql.withTransaction(effect).pipe(Effect.catchTag("SqlError", Effect.die))

    const findOrder: Repo["findOrder"] = (orderId) =>
      orders.one(sql`SELECT ${orderColumns} FROM billing_orders WHERE id = ${orderId}`)

    /** Extends Plus inside the caller's transaction; answers the new end. */
    const extendPlus = Effect.fnUntraced(function* (
      userId: Snowflake.Snowflake,
      months: number,
      now: DateTime.Utc,
      method: { readonly id: string; readonly phone: string } | null
    ) {
      yield* run(sql`INSERT INTO billing_plus (user_id, premium_until) VALUES (${userId}, ${date(now)})
                     ON CONFLICT (user_id) DO NOTHING`)
      const current = yield* plusRows.one(
        sql`SELECT ${plusColumns} FROM billing_plus WHERE user_id = ${userId} FOR UPDATE`
      )
      const until = Terms.extend(Option.getOrNull(Option.map(current, (p) => p.premiumUntil)), now, months)
      yield* run(sql`
        UPDATE billing_plus SET premium_until = ${date(until)}, renewal_attempt_at = NULL,
          payment_method_id = COALESCE(${method?.id ?? null}, payment_method_id),
          receipt_phone = COALESCE(${method?.phone ?? null}, receipt_phone)
        WHERE user_id = ${userId}`)
      return until
    })

    const insertSlots = (
      userId: Snowflake.Snowflake,
      ids: ReadonlyArray<Snowflake.Snowflake>,
      months: number,
      now: DateTime.Utc,
      source: { readonly orderId: string | null; readonly grantId: Snowflake.Snowflake | null }
    ) =>
      Effect.forEach(
        ids,
        (slotId) =>
          run(sql`INSERT INTO billing_boosts (id, user_id, ends_at, order_id, grant_id)
                  VALUES (${slotId}, ${userId}, ${date(Terms.addMonths(now, months))}, ${source.orderId}, ${source.grantId})`),
        { discard: true }
      )

    const recordGrant = (grant: BillingRepo.StaffGrant) =>
      run(sql`INSERT INTO billing_grants (id, staff_id, user_id, kind, months, count, created_at)
              VALUES (${grant.id}, ${grant.staffId}, ${grant.userId}, ${grant.kind}, ${grant.months}, ${grant.count},
                      ${date(grant.createdAt)})`)

    return BillingRepo.BillingRepo.of({
      createOrder: (order) =>
        Effect.gen(function* () {
          yield* run(sql`
            INSERT INTO billing_orders (id, user_id, plan_id, kind, months, amount_rub, phone, renewal, status, created_at)
            VALUES (${order.id}, ${order.userId}, ${order.planId}, ${order.kind}, ${order.months}, ${order.amountRub},
                    ${order.phone}, ${order.renewal}, 'pending', ${date(order.createdAt)})
            ON CONFLICT (id) DO NOTHING`)
          const found = yield* findOrder(order.id)
          return Option.getOrElse(found, () => ({
            ...order,
            status: "pending" as const,
            providerPaymentId: null,
            paidAt: null
          }))
        }),
      attachPayment: (orderId, paymentId) =>
        run(sql`UPDATE billing_orders SET provider_payment_id = ${paymentId}
                WHERE id = ${orderId} AND provider_payment_id IS NULL`),
      findOrder,
      settle: (settlement) =>
        transaction(
          Effect.gen(function* () {
            const succeeded = settlement.status === "succeeded"
            const changed = yield* orders.one(sql`
              UPDATE billing_orders SET status = ${settlement.status},
                provider_payment_id = COALESCE(provider_payment_id, ${settlement.paymentId}),
                paid_at = ${succeeded ? date(settlement.now) : null}
              WHERE id = ${settlement.orderId} AND status = 'pending'
              RETURNING ${orderColumns}`)
            if (Option.isNone(changed)) {
              return Option.map(yield* findOrder(settlement.orderId), (order) => ({ changed: false, order }))
            }
            const order = changed.value
            if (settlement.status === "succeeded") {
              if (order.kind === "plus") {
                const method =
                  settlement.savedMethodId === null ? null : { id: settlement.savedMethodId, phone: order.phone }
                yield* extendPlus(order.userId, order.months, settlement.now, method)
              } else {
                yield* insertSlots(order.userId, settlement.boostIds, order.months, settlement.now, {
                  orderId: order.id,
                  grantId: null
                })
              }
            } else if (settlement.forgetMethod) {
              yield* run(sql`UPDATE billing_plus SET payment_method_id = NULL WHERE user_id = ${order.userId}`)
            }
            return Option.some({ changed: true, order })
          })
        ),
      orders: (userId, limit) =>
        orders.many(sql`SELECT ${orderColumns} FROM billing_orders WHERE user_id = ${userId}
                        ORDER BY created_at DESC, id DESC LIMIT ${limit}`),
      plus: (userId) => plusRows.one(sql`SELECT ${plusColumns} FROM billing_plus WHERE user_id = ${userId}`),
      slots: (userId, now) =>
        slots.many(sql`SELECT ${slotColumns} FROM billing_boosts WHERE user_id = ${userId} AND ends_at > ${date(now)}
                       ORDER BY id`),
      applyBoost: (userId, guildId, now) =>
        slots.one(sql`
          UPDATE billing_boosts SET guild_id = ${guildId}, applied_at = ${date(now)}
          WHERE id = (
            SELECT id FROM billing_boosts
            WHERE user_id = ${userId} AND guild_id IS NULL AND ends_at > ${date(now)}
            ORDER BY ends_at DESC, id LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING ${slotColumns}`),
      releaseBoost: (userId, guildId, boostId) =>
        transaction(
          Effect.gen(function* () {
            const found = yield* owners.one(
              sql`SELECT user_id, guild_id FROM billing_boosts WHERE id = ${boostId} FOR UPDATE`
            )
            if (Option.isNone(found) || found.value.guild_id === null || id(found.value.guild_id) !== guildId) {
              return "unknown" as const
            }
            if (id(found.value.user_id) !== userId) return "not_yours" as const
            yield* run(sql`UPDATE billing_boosts SET guild_id = NULL, applied_at = NULL WHERE id = ${boostId}`)
            return "released" as const
          })
        ),
      guildBoosts: (guildId, now) =>
        slots.many(sql`SELECT ${slotColumns} FROM billing_boosts WHERE guild_id = ${guildId} AND ends_at > ${date(now)}
                       ORDER BY applied_at, id`),
      grantPlus: (grant, now) =>
        transaction(
          Effect.gen(function* () {
            const until = yield* extendPlus(grant.userId, grant.months, now, null)
            yield* recordGrant(grant)
            return until
          })
        ),
      grantBoosts: (grant, ids, now) =>
        transaction(
          Effect.gen(function* () {
            yield* recordGrant(grant)
            yield* insertSlots(grant.userId, ids, grant.months, now, { orderId: null, grantId: grant.id })
            return ids.length
          })
        ),
      grantsTo: (userId) =>
        grants.many(sql`SELECT id, staff_id, user_id, kind, months, count, created_at FROM billing_grants
                        WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`),
      claimRenewals: (claim) =>
        plusRows.many(sql`
          UPDATE billing_plus SET renewal_attempt_at = ${date(claim.now)}
          WHERE user_id IN (
            SELECT user_id FROM billing_plus
            WHERE payment_method_id IS NOT NULL
              AND premium_until < ${date(claim.dueBefore)} AND premium_until > ${date(claim.endedAfter)}
              AND (renewal_attempt_at IS NULL OR renewal_attempt_at < ${date(claim.retryBefore)})
            ORDER BY premium_until LIMIT ${claim.limit} FOR UPDATE SKIP LOCKED)
          RETURNING ${plusColumns}`),
      expireBoosts: (now, limit) =>
        guilds.many(sql`
          WITH due AS (
            SELECT id, guild_id FROM billing_boosts
            WHERE guild_id IS NOT NULL AND ends_at <= ${date(now)}
            ORDER BY ends_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE billing_boosts b SET guild_id = NULL, applied_at = NULL FROM due
          WHERE b.id = due.id
          RETURNING due.guild_id`),
      forget: (userId) =>
        transaction(
          Effect.gen(function* () {
            yield* run(sql`UPDATE billing_orders SET phone = ${BillingRepo.ERASED_PHONE}
                           WHERE user_id = ${userId} AND phone <> ${BillingRepo.ERASED_PHONE}`)
            yield* run(sql`DELETE FROM billing_plus WHERE user_id = ${userId}`)
            const freed = yield* slots.many(sql`DELETE FROM billing_boosts WHERE user_id = ${userId}
                                               RETURNING ${slotColumns}`)
            return freed.flatMap((slot) => (slot.guildId === null ? [] : [slot.guildId]))
          })
        ),
      money: (now, monthStart) =>
        Effect.map(
          money.one(sql`
            SELECT
              (SELECT count(*) FROM billing_plus WHERE premium_until > ${date(now)})::int AS plus_active,
              (SELECT count(*) FROM billing_boosts WHERE ends_at > ${date(now)})::int AS boosts,
              (SELECT COALESCE(sum(amount_rub), 0) FROM billing_orders
                WHERE status = 'succeeded' AND paid_at >= ${date(monthStart)})::int AS paid`),
          (found) =>
            Option.match(found, {
              onNone: () => ({ plusActive: 0, boosts: 0, paidMonthRub: 0 }),
              onSome: (row) => ({ plusActive: row.plus_active, boosts: row.boosts, paidMonthRub: row.paid })
            })
        )
    })
  })
)
