/**
 * The boundary scenarios of test/boundary.test.ts on PostgreSQL, where input that got through the
 * schemas (a NUL, an id past 2^63−1, an integer past the int column) failed the query as a 500.
 * The test host over every Pg repository, each describe block in a fresh schema.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { boundaryScenarios } from "~/test/support/BoundaryScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Boundary (PostgreSQL)", () => {
  boundaryScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
