/**
 * The application scenarios of test/support/ApplicationScenarios.ts on PostgreSQL, where creations
 * at the cap really race and a token reset is one row's change: the test host over every Pg
 * repository, each describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { applicationScenarios } from "~/test/support/ApplicationScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Application routes (PostgreSQL)", () => {
  applicationScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
