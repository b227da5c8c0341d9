/**
 * What the server's gateway shares between nodes: with REDIS_URL, dispatches over Redis pub/sub (a
 * session on any node receives what happens through any other; RedisDispatchBus) and identify
 * limits in Redis (one budget per bot across nodes), and presence (who is online, per guild counts;
 * RedisPresenceStore); without it, all in this process.
 */
import { DispatchSource, IdentifyLimits, PresenceStore } from "@veche/gateway"
import { EventBus } from "@veche/platform"
import type { RedisDispatchBus } from "@veche/redis"
import { Layer, Option } from "effect"
import type { Redis } from "effect/persistence"
import * as RedisModule from "./RedisModule.ts"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (
  config: ServerConfig
): Layer.Layer<
  EventBus.EventBus | DispatchSource.DispatchSource | IdentifyLimits.IdentifyLimits | PresenceStore.PresenceStore,
  RedisDispatchBus.DispatchBusUnavailable | Redis.RedisError
> =>
  Option.match(config.redisUrl, {
    onSome: (url) =>
      RedisModule.layer(({ RedisDispatchBus, RedisIdentifyLimits, RedisPresenceStore }) =>
        Layer.mergeAll(
          RedisDispatchBus.layer({ url, prefix: `${config.redisPrefix}gateway:` }),
          RedisIdentifyLimits.layer({
            url,
            userLimits: config.userIdentifyLimits,
            prefix: `${config.redisPrefix}identify:`
          }),
          RedisPresenceStore.layer({ url, prefix: `${config.redisPrefix}presence:` })
        )
      ),
    onNone: () =>
      Layer.mergeAll(
        DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory)),
        IdentifyLimits.IdentifyLimits.layerMemory(IdentifyLimits.DEFAULT_LIMITS, config.userIdentifyLimits),
        PresenceStore.PresenceStore.layerMemory
      )
  })
