/**
 * The revocation scenarios of test/support/GatewayRevocationScenarios.ts on PostgreSQL: word of a
 * logout, ended sessions and a bot's token reset comes from the database's notifications (migrations
 * 0030 and 0033), in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { gatewayRevocationScenarios } from "~/test/support/GatewayRevocationScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Gateway revocation (PostgreSQL)", () => {
  gatewayRevocationScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
