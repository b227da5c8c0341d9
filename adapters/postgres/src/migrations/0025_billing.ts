/**
 * Billing (migration 0025): orders (a payment at the provider and what it buys), Plus per user,
 * boost slots, and staff grants.
 *
 * - `billing_orders.provider_payment_id` is unique: one provider payment settles one order.
 *   Settling is `UPDATE … WHERE status = 'pending'` in the transaction that grants, so duplicate
 *   and concurrent notifications grant once.
 * - Orders and grants refer to users by id without a foreign key: payment records are kept after
 *   an account is deleted (accounting keeps them).
 * - A slot applied to a guild that is deleted is freed (`ON DELETE SET NULL`).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE billing_orders (
      id                  TEXT PRIMARY KEY,
      user_id             BIGINT NOT NULL,
      plan_id             TEXT NOT NULL,
      kind                TEXT NOT NULL CHECK (kind IN ('plus', 'boost')),
      months              INTEGER NOT NULL CHECK (months > 0),
      amount_rub          INTEGER NOT NULL CHECK (amount_rub > 0),
      phone               TEXT NOT NULL,
      renewal             BOOLEAN NOT NULL,
      status              TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'canceled')),
      provider_payment_id TEXT UNIQUE,
      created_at          TIMESTAMPTZ NOT NULL,
      paid_at             TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX billing_orders_user ON billing_orders (user_id, created_at DESC)`
  yield* sql`CREATE INDEX billing_orders_paid ON billing_orders (paid_at) WHERE status = 'succeeded'`
  yield* sql`
    CREATE TABLE billing_plus (
      user_id           BIGINT PRIMARY KEY,
      premium_until     TIMESTAMPTZ NOT NULL,
      payment_method_id TEXT,
      receipt_phone     TEXT,
      renewal_attempt_at TIMESTAMPTZ
    )`
  yield* sql`CREATE INDEX billing_plus_renewal ON billing_plus (premium_until) WHERE payment_method_id IS NOT NULL`
  yield* sql`
    CREATE TABLE billing_boosts (
      id         BIGINT PRIMARY KEY,
      user_id    BIGINT NOT NULL,
      guild_id   BIGINT REFERENCES guilds (id) ON DELETE SET NULL,
      applied_at TIMESTAMPTZ,
      ends_at    TIMESTAMPTZ NOT NULL,
      order_id   TEXT REFERENCES billing_orders (id),
      grant_id   BIGINT
    )`
  yield* sql`CREATE INDEX billing_boosts_user ON billing_boosts (user_id, ends_at)`
  yield* sql`CREATE INDEX billing_boosts_guild ON billing_boosts (guild_id, ends_at) WHERE guild_id IS NOT NULL`
  yield* sql`
    CREATE TABLE billing_grants (
      id         BIGINT PRIMARY KEY,
      staff_id   BIGINT NOT NULL,
      user_id    BIGINT NOT NULL,
      kind       TEXT NOT NULL CHECK (kind IN ('plus', 'boosts')),
      months     INTEGER NOT NULL,
      count      INTEGER NOT NULL,
      created_at TIMESTAMPTZ NOT NULL
    )`
  yield* sql`CREATE INDEX billing_grants_user ON billing_grants (user_id, created_at DESC)`
})
