/**
 * The image deletion scenarios of test/image-cleanup.test.ts on PostgreSQL: the test host over every
 * Pg repository, each describe block in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { imageCleanupScenarios } from "~/test/support/ImageCleanupScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Image deletion (PostgreSQL)", () => {
  imageCleanupScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
