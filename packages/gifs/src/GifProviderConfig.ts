/**
 * Picks the GIF provider from the environment, for hosts:
 *
 * - `SERVICE_GIFS_PROVIDER`: `dev` (default: fixtures, nothing leaves the machine), `klipy`, or
 *   `none` (every GIF route answers 502).
 * - `klipy` is the host's adapter (`KlipyGifProvider.layerConfig` from `@veche/klipy`, which reads
 *   `KLIPY_*`), passed in like the other provider adapters; choosing it on a host that did not is a
 *   configuration error at startup.
 */
import { Config, ConfigProvider, Effect, Layer } from "effect"
import * as DevGifProvider from "./DevGifProvider.ts"
import { GifProvider } from "./GifProvider.ts"

export const PROVIDERS = ["dev", "klipy", "none"] as const
export type ProviderName = (typeof PROVIDERS)[number]

export interface Options<R = never> {
  /** `SERVICE_GIFS_PROVIDER=klipy`: `KlipyGifProvider.layerConfig` from `@veche/klipy`. */
  readonly klipy?: Layer.Layer<GifProvider, Config.ConfigError, R> | undefined
}

export const layerConfig = <R = never>(options: Options<R> = {}): Layer.Layer<GifProvider, Config.ConfigError, R> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const provider = yield* Config.Literals(PROVIDERS, "SERVICE_GIFS_PROVIDER").pipe(
        Config.withDefault<ProviderName>("dev")
      )
      switch (provider) {
        case "none":
          return GifProvider.layerNone
        case "klipy":
          if (options.klipy === undefined) {
            return yield* Config.fail(
              new ConfigProvider.SourceError({
                message: "SERVICE_GIFS_PROVIDER=klipy needs the @veche/klipy adapter, which this host does not install"
              })
            )
          }
          return options.klipy
        case "dev": {
          const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
          if (env !== "dev")
            yield* Effect.logWarning(`SERVICE_GIFS_PROVIDER=dev is a dev adapter, yet SERVICE_ENV is ${env}`)
          return DevGifProvider.layer
        }
      }
    })
  )
