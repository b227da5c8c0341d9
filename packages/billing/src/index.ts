/**
 * @veche/billing: Plus subscriptions and server boosts — plans, checkout through the
 * PaymentProvider port, provider notifications settled exactly once, entitlements (UserLimits,
 * GuildLimits), boost slots, renewal and expiry jobs, staff grants, the statistics' money counts.
 * Ports other parts answer: PaymentProvider (an adapter: none, `@veche/yookassa`), BoostGuilds,
 * BillingStaff.
 */
export * as Billing from "./Billing.ts"
export * as BillingConfig from "./BillingConfig.ts"
export * as BillingDomain from "./BillingDomain.ts"
export * as BillingErrors from "./BillingErrors.ts"
export * as BillingJobs from "./BillingJobs.ts"
export * as BillingRepo from "./BillingRepo.ts"
export * as BillingStaff from "./BillingStaff.ts"
export * as BoostGuilds from "./BoostGuilds.ts"
export * as Entitlements from "./Entitlements.ts"
export * as Limits from "./Limits.ts"
export * as PaymentProvider from "./PaymentProvider.ts"
export * as Plans from "./Plans.ts"
export * as ReceiptPhone from "./ReceiptPhone.ts"
export * as Terms from "./Terms.ts"
