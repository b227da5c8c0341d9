/**
 * The OAuth scenarios of test/support/OAuthScenarios.ts on PostgreSQL, where concurrent redemptions
 * of one code and concurrent refreshes really race: the test host over every Pg repository, each
 * describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { oauthScenarios } from "~/test/support/OAuthScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("OAuth routes (PostgreSQL)", () => {
  oauthScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
