/**
 * The gateway scenarios of test/support/GatewayScenarios.ts on PostgreSQL: READY's guilds, the
 * GUILD_CREATE snapshots and the members they carry read from the Pg repositories, in a fresh
 * schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { gatewayScenarios } from "~/test/support/GatewayScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Gateway (PostgreSQL)", () => {
  gatewayScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
