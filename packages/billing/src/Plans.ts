/**
 * What can be bought: Plus for some months, or a boost slot for some months. Operators set their
 * own list (`SERVICE_BILLING_PLANS`, JSON in the spec's plan shape); these are the defaults.
 * A boost plan buys one slot; buy it again for more.
 */
import { Schema } from "effect"

export const Kind = Schema.Literals(["plus", "boost"])
export type Kind = typeof Kind.Type

/** The spec's plan record, exactly its field names (they are the wire shape too). */
export const Plan = Schema.Struct({
  ID: Schema.String.check(Schema.isPattern(/^[a-z0-9_-]{1,32}$/)),
  Kind,
  Name: Schema.String.check(Schema.isBetweenLength(1, 128)),
  PriceRub: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1_000_000 })),
  Months: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 24 }))
})
export type Plan = typeof Plan.Type

export const PlanList = Schema.Array(Plan).check(Schema.isMinLength(1))

export const DEFAULT_PLANS: ReadonlyArray<Plan> = [
  { ID: "plus_1m", Kind: "plus", Name: "Veche Plus, 1 month", PriceRub: 199, Months: 1 },
  { ID: "plus_12m", Kind: "plus", Name: "Veche Plus, 12 months", PriceRub: 1990, Months: 12 },
  { ID: "boost_1m", Kind: "boost", Name: "Server boost, 1 month", PriceRub: 149, Months: 1 },
  { ID: "boost_12m", Kind: "boost", Name: "Server boost, 12 months", PriceRub: 1490, Months: 12 }
]
