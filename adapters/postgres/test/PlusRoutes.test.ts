/**
 * The Plus scenarios of test/support/PlusScenarios.ts on PostgreSQL, where joins and creations at
 * the guild cap really race (the user's advisory lock and the count in one transaction): the test
 * host over every Pg repository, each describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { plusScenarios } from "~/test/support/PlusScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Plus routes (PostgreSQL)", () => {
  plusScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
