/**
 * Rate-limit counters in Redis, so that every node behind a load balancer enforces one limit
 * together. Connects when the layer is built (a wrong REDIS_URL stops the start with a clear
 * error) and disconnects when it closes. The route limits count over `connection` with
 * `RouteLimiter.layerRedis` (one script call for the requests of an event-loop turn); the quotas
 * through `layer`'s store.
 */
import * as NodeRedis from "@effect/platform-node/NodeRedis"
import { RateLimitStore, RouteCountConnection } from "@veche/ratelimit"
import { Data, Effect, Layer, Redacted } from "effect"
import type { RateLimiter, Redis } from "effect/persistence"

export interface Options {
  readonly url: Redacted.Redacted<string>
  /** Where the counters' keys start (default `RateLimitStore.DEFAULT_PREFIX`). */
  readonly prefix?: string
}

const prefixOf = (options: Options) => (options.prefix === undefined ? {} : { prefix: options.prefix })

/**
 * How long a route count waits for Redis before the request goes through uncounted (logged): the
 * driver's own default for a command (node-redis `DEFAULT_COMMAND_TIMEOUT`). One deadline per
 * command, so per batch of counts: every request of a batch past it goes through.
 */
export const COMMAND_DEADLINE_MS = 5_000

/** A route count's failure when Redis did not answer within the deadline (logged, then let through). */
export class CommandDeadlinePassed extends Data.TaggedError("CommandDeadlinePassed")<{ readonly deadlineMs: number }> {}

/** The little of node-redis's client a route count uses. */
export interface CommandClient {
  readonly sendCommand: (args: Array<string>, options: { readonly timeout: number }) => Promise<unknown>
}

// node-redis 6 arms an AbortSignal.timeout for every command by default (a signal, a timer and a
// listener each, the timer left to fire 5 s later): 1.5 µs of a count's 4 µs in-process
// (bench/redis-micro.ts). A plain timer cleared on the reply keeps the same deadline for 0.3 µs.
const NO_DRIVER_TIMEOUT = { timeout: 0 } as const

/**
 * `RouteCountConnection` over a node-redis client: the command as it is, the deadline kept here.
 * Exactly one callback runs: a reply after the deadline is dropped (the request already went on).
 */
export const routeCounts = (
  client: CommandClient,
  deadlineMs: number = COMMAND_DEADLINE_MS
): RouteCountConnection.RouteCountConnection["Service"] =>
  RouteCountConnection.RouteCountConnection.of({
    send: (command, onReply, onFailure) => {
      let settled = false
      const timer = setTimeout(() => {
        settled = true
        onFailure(new CommandDeadlinePassed({ deadlineMs }))
      }, deadlineMs)
      client.sendCommand(command as Array<string>, NO_DRIVER_TIMEOUT).then(
        (reply) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          onReply(reply)
        },
        (cause: unknown) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          onFailure(cause)
        }
      )
    }
  })

/**
 * One client for everything the limiters count (the driver: node-redis through @effect/platform-node):
 * effect's `Redis` for the quotas, and the same client as `RouteCountConnection` for route limits.
 */
export const connection = (
  options: Options
): Layer.Layer<Redis.Redis | RouteCountConnection.RouteCountConnection, Redis.RedisError> =>
  Layer.effect(
    RouteCountConnection.RouteCountConnection,
    Effect.map(Effect.service(NodeRedis.NodeRedis), ({ client }) => routeCounts(client))
  ).pipe(Layer.provideMerge(NodeRedis.layer({ url: Redacted.value(options.url) })))

/** effect's RateLimiter over Redis: the store the domains' quotas count in. */
export const layer = (options: Options): Layer.Layer<RateLimiter.RateLimiter, Redis.RedisError> =>
  RateLimitStore.layerRedis(prefixOf(options)).pipe(Layer.provide(connection(options)))
