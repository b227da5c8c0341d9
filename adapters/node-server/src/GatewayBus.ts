/**
 * What the server's gateway shares between nodes: with REDIS_URL, dispatches over Redis pub/sub (a
 * session on any node receives what happens through any other; RedisDispatchBus) and identify
 * limits in Redis (one budget per bot across nodes), and presence (who is online, per guild counts;
 * RedisPresenceStore); without it, all in this process.
 */
import { DispatchSource, IdentifyLimits, PresenceStore } from "@veche/gateway"
import { EventBus } from "@veche/platform"
import { RedisDispatchBus, RedisIdentifyLimits, RedisPresenceStore } from "@veche/redis"
import { Layer, Option } from "effect"
import type { Redis } from "effect/persistence"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (
  config: ServerConfig
): Layer.Layer<
  EventBus.EventBus | DispatchSource.DispatchSource | IdentifyLimits.IdentifyLimits | PresenceStore.PresenceStore,
  RedisDispatchBus.DispatchBusUnavailable | Redis.RedisError
> =>
  Option.match(config.redisUrl, {
    onSome: (url) =>
      Layer.mergeAll(
        RedisDispatchBus.layer({ url }),
        RedisIdentifyLimits.layer({ url, userLimits: config.userIdentifyLimits }),
        RedisPresenceStore.layer({ url })
      ),
    onNone: () =>
      Layer.mergeAll(
        DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory)),
        IdentifyLimits.IdentifyLimits.layerMemory(IdentifyLimits.DEFAULT_LIMITS, config.userIdentifyLimits),
        PresenceStore.PresenceStore.layerMemory
      )
  })
