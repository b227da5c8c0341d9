/**
 * The message scenarios of test/support/MessageScenarios.ts on PostgreSQL, where pins at the cap and
 * posts inside one slow-mode window really race: the test host over every Pg repository, each
 * describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { messageScenarios } from "~/test/support/MessageScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Message routes (PostgreSQL)", () => {
  messageScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
