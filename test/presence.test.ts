/**
 * Presence through the gateway on the in-memory test host (support/PresenceScenarios.ts); again with
 * presence kept in Redis when REDIS_URL is set (CI sets it), each host on keys of its own.
 */
import { RedisPresenceStore } from "@veche/redis"
import { Layer, Redacted } from "effect"
import { presenceScenarios } from "./support/PresenceScenarios.ts"

presenceScenarios()

const redisUrl = process.env.REDIS_URL
let hosts = 0
if (redisUrl !== undefined && redisUrl !== "")
  presenceScenarios({
    label: " (presence in Redis)",
    presence: () =>
      RedisPresenceStore.layer({
        url: Redacted.make(redisUrl),
        prefix: `veche:test:presence-routes:${process.pid}:${Date.now()}:${++hosts}:`
      }).pipe(Layer.orDie)
  })
