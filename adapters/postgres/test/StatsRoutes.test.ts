/**
 * The staff statistics scenarios of test/moderation-stats.test.ts on PostgreSQL: the test host over
 * every Pg repository (the rollups included), in a fresh schema dropped afterwards.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { statsScenarios } from "~/test/support/StatsScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Staff statistics (PostgreSQL)", () => {
  statsScenarios(
    () => PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie),
    { weekLater: false }
  )
})
