/**
 * The guild HTTP scenarios of test/guilds.test.ts on PostgreSQL: the test host over every Pg
 * repository, each describe block in a fresh schema (dropped afterwards), so runs never collide.
 */
import { describe } from "@effect/vitest"
import { Layer, Redacted } from "effect"
import { guildRouteScenarios } from "~/test/support/GuildScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

// Runs wherever a server is given (CI always gives one).
describe.runIf(url !== undefined && url !== "")("Guild routes (PostgreSQL)", () => {
  // a database that cannot be reached or migrated is a defect here, as at any host's boundary
  guildRouteScenarios(() =>
    PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  )
})
