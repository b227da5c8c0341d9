/**
 * The scenarios of test/support/GatewayViewScenarios.ts on PostgreSQL: channel visibility read from
 * the Pg repositories (roles, overwrites, members), in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { gatewayViewScenarios } from "~/test/support/GatewayViewScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Gateway views (PostgreSQL)", () => {
  gatewayViewScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
