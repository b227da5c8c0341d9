/**
 * The staff scenarios of test/support/StaffScenarios.ts on PostgreSQL: the audit log, the edited
 * words and the catalogue check (claims with SKIP LOCKED, conditional state changes) on the real
 * store, and an account's Plus and boost slots in the lookup (without the month the clock would move),
 * each describe block in a fresh schema.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { staffScenarios } from "~/test/support/StaffScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Staff routes (PostgreSQL)", () => {
  staffScenarios(
    () => PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie),
    { clockJumps: false }
  )
})
