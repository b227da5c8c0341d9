/**
 * Where the server's dispatches travel: with REDIS_URL over Redis pub/sub, so a session on any node
 * receives what happens through any other (RedisDispatchBus); without it, in this process.
 */
import { DispatchSource } from "@veche/gateway"
import { EventBus } from "@veche/platform"
import { RedisDispatchBus } from "@veche/redis"
import { Layer, Option } from "effect"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (
  config: ServerConfig
): Layer.Layer<EventBus.EventBus | DispatchSource.DispatchSource, RedisDispatchBus.DispatchBusUnavailable> =>
  Option.match(config.redisUrl, {
    onSome: (url) => RedisDispatchBus.layer({ url }),
    onNone: () => DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory))
  })
