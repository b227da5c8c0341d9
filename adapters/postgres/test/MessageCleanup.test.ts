/**
 * The scenarios of test/support/MessageCleanupScenarios.ts on PostgreSQL: a deleted channel's
 * messages removed in bounded batches, a dissolved guild's with every channel, in a fresh schema.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { messageCleanupScenarios } from "~/test/support/MessageCleanupScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Message cleanup (PostgreSQL)", () => {
  messageCleanupScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
