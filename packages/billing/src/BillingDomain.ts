/**
 * The billing domain as one layer: Billing and its jobs over the store, settings and the ports
 * other parts answer: PaymentProvider (the host's choice: none or YooKassa), BoostGuilds (guilds),
 * BillingStaff (moderation).
 */
import type { Snowflake } from "@veche/platform"
import { Layer } from "effect"
import { Billing } from "./Billing.ts"
import type { BillingConfig } from "./BillingConfig.ts"
import { BillingJobs } from "./BillingJobs.ts"
import { BillingRepo } from "./BillingRepo.ts"
import type { BillingStaff } from "./BillingStaff.ts"
import type { BoostGuilds } from "./BoostGuilds.ts"
import { Entitlements } from "./Entitlements.ts"
import type { PaymentProvider } from "./PaymentProvider.ts"

export type Services = Billing | BillingJobs | Entitlements

/** The domain's repository ports (PostgreSQL: `PgBillingRepo`). */
export type Repositories = BillingRepo

/** Every repository of the domain on memory, fresh per build. */
export const layerMemoryRepositories: Layer.Layer<Repositories> = BillingRepo.layerMemory

export const layer: Layer.Layer<
  Services,
  never,
  Repositories | BillingConfig | PaymentProvider | BoostGuilds | BillingStaff | Snowflake.SnowflakeGenerator
> = Layer.provideMerge(BillingJobs.layer, Billing.layer).pipe(Layer.provideMerge(Entitlements.layer))
