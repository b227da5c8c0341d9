/** The billing domain's repositories on PostgreSQL, over one SqlClient. */
import type { BillingDomain } from "@veche/billing"
import type { Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as PgBillingRepo from "./PgBillingRepo.ts"

export const layer: Layer.Layer<BillingDomain.Repositories, never, SqlClient.SqlClient> = PgBillingRepo.layer
