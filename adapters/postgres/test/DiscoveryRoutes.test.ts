/**
 * The catalogue scenarios of test/support/DiscoveryScenarios.ts on PostgreSQL, where five
 * publications by one owner really race for the three places and search runs on full text
 * (simple, Russian, English) and pg_trgm: the test host over every Pg repository, each describe
 * block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { discoveryScenarios } from "~/test/support/DiscoveryScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Discovery routes (PostgreSQL)", () => {
  discoveryScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
