/**
 * The server's GIF provider and cache: the provider by SERVICE_GIFS_PROVIDER (dev fixtures, KLIPY
 * over this server's HTTP client, or none), answers cached in Redis when REDIS_URL is set (every
 * node serves what one asked) or in this process otherwise.
 */
import { GifCache, type GifProvider, GifProviderConfig } from "@veche/gifs"
import { KlipyGifProvider } from "@veche/klipy"
import { type Config, Layer, Option } from "effect"
import type { HttpClient } from "effect/http"
import type { Redis } from "effect/persistence"
import * as RedisModule from "./RedisModule.ts"
import type { ServerConfig } from "./ServerConfig.ts"

export const layer = (
  config: ServerConfig
): Layer.Layer<
  GifProvider.GifProvider | GifCache.GifCache,
  Config.ConfigError | Redis.RedisError,
  HttpClient.HttpClient
> =>
  Layer.merge(
    GifProviderConfig.layerConfig({ klipy: KlipyGifProvider.layerConfig }),
    Option.match(config.redisUrl, {
      onSome: (url) =>
        RedisModule.layer(({ RedisGifCache, RedisRateLimits }) =>
          RedisGifCache.layer({ prefix: `${config.redisPrefix}gifs:` }).pipe(
            Layer.provide(RedisRateLimits.connection({ url }))
          )
        ),
      onNone: () => GifCache.GifCache.layerMemory()
    })
  )
