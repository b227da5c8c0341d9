import { describe, layer } from "@effect/vitest"
import { billingRepoContract } from "@veche/billing/test/contracts/BillingRepoContract"
import { Layer, Redacted } from "effect"
import * as PgBillingRepo from "../src/PgBillingRepo.ts"
import * as PgGuildsRepo from "../src/PgGuildsRepo.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"
import * as PgUsersRepo from "../src/PgUsersRepo.ts"

const url = process.env.DATABASE_URL

// The PostgreSQL half of the contract, where ten settlements of one order really race.
describe.runIf(url !== undefined && url !== "")("BillingRepo (PostgreSQL)", () => {
  layer(
    Layer.mergeAll(PgBillingRepo.layer, PgGuildsRepo.layer, PgUsersRepo.layer).pipe(
      Layer.provide(PgTestSchema.layer(Redacted.make(url ?? "")))
    ),
    { timeout: "60 seconds" }
  )((it) => billingRepoContract(it))
})
