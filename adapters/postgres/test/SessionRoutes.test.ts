/**
 * The session scenarios of test/support/SessionScenarios.ts on PostgreSQL, where concurrent
 * refreshes and a login racing a recovery really interleave: the test host over every Pg
 * repository, each describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { sessionScenarios } from "~/test/support/SessionScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Session routes (PostgreSQL)", () => {
  sessionScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
