/**
 * The billing scenarios of test/support/BillingScenarios.ts on PostgreSQL, where ten duplicate
 * notifications really race for one grant and boost slots are taken under row locks: the test
 * host over every Pg repository, each describe block in a fresh schema (dropped afterwards). The
 * scenarios that move the clock a month stay on memory (see billingScenarios).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { billingScenarios } from "~/test/support/BillingScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Billing routes (PostgreSQL)", () => {
  billingScenarios(
    () => PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie),
    { clockJumps: false }
  )
})
