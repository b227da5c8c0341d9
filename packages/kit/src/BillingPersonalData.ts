/**
 * Billing's file of a user's data export, `billing.json`: Plus (its term and whether a card is
 * saved: never the card's token), the boost slots in force, and every payment (id, plan, amount,
 * status, dates; no card data, no receipt phone). No file for a user who never had any of them.
 */
import type { Billing } from "@veche/billing"
import type { PersonalData } from "@veche/users"
import { DateTime, Option } from "effect"

const iso = (at: DateTime.Utc | null): string | null => (at === null ? null : DateTime.formatIso(at))

export const billingSections = (
  record: Billing.PersonalRecord,
  now: DateTime.Utc
): ReadonlyArray<PersonalData.Section> => {
  if (Option.isNone(record.plus) && record.boosts.length === 0 && record.payments.length === 0) return []
  const plus = Option.getOrNull(record.plus)
  return [
    {
      file: "billing.json",
      about: "your Plus subscription, boosts and payments",
      content: {
        plus:
          plus === null
            ? null
            : {
                premium_until: iso(plus.premiumUntil),
                active: DateTime.isGreaterThan(plus.premiumUntil, now),
                card_saved: plus.paymentMethodId !== null
              },
        boosts: record.boosts.map((slot) => ({
          id: slot.id,
          guild_id: slot.guildId,
          applied_at: iso(slot.appliedAt),
          ends_at: iso(slot.endsAt)
        })),
        payments: record.payments.map((order) => ({
          id: order.id,
          plan_id: order.planId,
          kind: order.kind,
          months: order.months,
          amount_rub: order.amountRub,
          status: order.status,
          renewal: order.renewal,
          created_at: iso(order.createdAt),
          paid_at: iso(order.paidAt)
        }))
      }
    }
  ]
}
