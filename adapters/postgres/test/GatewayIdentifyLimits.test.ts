/**
 * The identify-limit scenarios of test/support/IdentifyLimitScenarios.ts with accounts and sessions
 * on PostgreSQL (a fresh schema, dropped afterwards); the limits counted in memory on the host's clock.
 */
import { describe } from "@effect/vitest"
import { IdentifyLimits } from "@veche/gateway"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { identifyLimitScenarios } from "~/test/support/IdentifyLimitScenarios"
import * as PgRepositories from "../src/PgRepositories.ts"
import * as PgTestSchema from "../src/PgTestSchema.ts"

const url = process.env.DATABASE_URL

describe.runIf(url !== undefined && url !== "")("Gateway identify limits (PostgreSQL)", () => {
  identifyLimitScenarios({
    label: " (PostgreSQL)",
    limits: () => IdentifyLimits.IdentifyLimits.layerMemory(IdentifyLimits.DEFAULT_LIMITS, { total: 4, burst: 2 }),
    nextWindow: Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("5 seconds")),
    repositories: () =>
      PgRepositories.layer.pipe(Layer.provide(PgTestSchema.layer(Redacted.make(url ?? ""))), Layer.orDie)
  })
})
