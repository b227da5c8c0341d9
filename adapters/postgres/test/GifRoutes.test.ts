/**
 * The GIF scenarios of test/support/GifScenarios.ts on PostgreSQL: the accounts, settings and birth
 * dates the proxy reads come from the Pg repositories (each describe block in a fresh schema).
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { gifScenarios } from "~/test/support/GifScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("GIF routes (PostgreSQL)", () => {
  gifScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
