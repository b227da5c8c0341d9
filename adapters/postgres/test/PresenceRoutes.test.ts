/**
 * The presence scenarios of test/support/PresenceScenarios.ts on PostgreSQL: members, friends and
 * settings read from the Pg repositories, in a fresh schema (dropped afterwards).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { presenceScenarios } from "~/test/support/PresenceScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Presence (PostgreSQL)", () => {
  presenceScenarios({
    label: " (PostgreSQL)",
    repositories: () =>
      PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })
})
