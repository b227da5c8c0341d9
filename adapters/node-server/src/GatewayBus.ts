/**
 * What the server's gateway shares between nodes: with REDIS_URL, dispatches over Redis pub/sub (a
 * session on any node receives what happens through any other; RedisDispatchBus) and identify
 * limits in Redis (one budget per bot across nodes); without it, both in this process.
 */
import { DispatchSource, IdentifyLimits } from "@veche/gateway"
import { EventBus } from "@veche/platform"
import { RedisDispatchBus, RedisIdentifyLimits } from "@veche/redis"
import { Layer, Option } from "effect"
import type { Redis } from "effect/persistence"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (
  config: ServerConfig
): Layer.Layer<
  EventBus.EventBus | DispatchSource.DispatchSource | IdentifyLimits.IdentifyLimits,
  RedisDispatchBus.DispatchBusUnavailable | Redis.RedisError
> =>
  Option.match(config.redisUrl, {
    onSome: (url) => Layer.merge(RedisDispatchBus.layer({ url }), RedisIdentifyLimits.layer({ url })),
    onNone: () =>
      Layer.merge(
        DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory)),
        IdentifyLimits.IdentifyLimits.layerMemory()
      )
  })
