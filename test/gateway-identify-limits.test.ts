/**
 * A user's identify limits through a socket (support/IdentifyLimitScenarios.ts): counted in memory
 * on the host's clock, and in Redis when REDIS_URL is set (CI sets it), on keys of this run.
 */
import { IdentifyLimits } from "@veche/gateway"
import { RedisIdentifyLimits } from "@veche/redis"
import { TestHost } from "@veche/test-host"
import { Effect, Layer, Redacted } from "effect"
import { identifyLimitScenarios } from "./support/IdentifyLimitScenarios.ts"

const limits = { total: 1000, maxConcurrency: 1 }
const userLimits = { total: 4, burst: 2 }

identifyLimitScenarios({
  label: "",
  limits: () => IdentifyLimits.IdentifyLimits.layerMemory(limits, userLimits),
  nextWindow: Effect.flatMap(Effect.service(TestHost.TestHost), (host) => host.adjustClock("5 seconds"))
})

const redisUrl = process.env.REDIS_URL
if (redisUrl !== undefined && redisUrl !== "")
  identifyLimitScenarios({
    label: " (Redis)",
    limits: () =>
      RedisIdentifyLimits.layer({
        url: Redacted.make(redisUrl),
        prefix: `veche:test:identify-routes:${process.pid}:${Date.now()}:`,
        limits,
        userLimits
      }).pipe(Layer.orDie),
    // real time (the test's clock is a test clock, and Redis expires keys on its own)
    nextWindow: Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, 5100)))
  })
