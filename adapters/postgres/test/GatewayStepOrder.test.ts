/**
 * The gateway's step-order scenarios (test/support/GatewayStepScenarios.ts) on PostgreSQL, in a
 * fresh schema: the races of IDENTIFY with a heartbeat deadline, a kick and a join, on the Pg reads.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { gatewayStepScenarios } from "~/test/support/GatewayStepScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Gateway step order (PostgreSQL)", () => {
  gatewayStepScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
