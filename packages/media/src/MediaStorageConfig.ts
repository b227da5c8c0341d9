/**
 * Picks the `MediaStorage` adapter from the environment, for hosts:
 *
 * - `SERVICE_MEDIA_STORAGE`: `none` (uploads answer 501), `fs` or `s3`. Default: `fs` when a folder
 *   is known (`SERVICE_MEDIA_DIR`, or the host's `defaultDir`), else `none`.
 * - `SERVICE_MEDIA_DIR`: the folder of `fs` (default: the host's `defaultDir`, e.g. the reference
 *   server's `<data folder>/media`).
 * - `s3` is the host's `s3` adapter (`S3MediaStorage.layerConfig` from `@veche/s3`, which reads
 *   `S3_*`): it needs a driver, so it lives in its own package and a host passes it in; choosing
 *   `s3` on a host that did not is a configuration error at startup.
 */
import { Config, ConfigProvider, Effect, Layer, Option } from "effect"
import * as FsMediaStorage from "./FsMediaStorage.ts"
import { MediaStorage } from "./MediaStorage.ts"

export const STORAGES = ["none", "fs", "s3"] as const
export type StorageName = (typeof STORAGES)[number]

export interface Options<R = never> {
  /** Where `fs` keeps objects when `SERVICE_MEDIA_DIR` is not set. */
  readonly defaultDir?: string | undefined
  /** `SERVICE_MEDIA_STORAGE=s3`: `S3MediaStorage.layerConfig` from `@veche/s3`. */
  readonly s3?: Layer.Layer<MediaStorage, Config.ConfigError, R> | undefined
}

export const layerConfig = <R = never>(options?: Options<R>): Layer.Layer<MediaStorage, Config.ConfigError, R> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const configuredDir = yield* Config.option(Config.NonEmptyString("SERVICE_MEDIA_DIR"))
      const dir = Option.orElse(configuredDir, () => Option.fromUndefinedOr(options?.defaultDir))
      const storage = yield* Config.Literals(STORAGES, "SERVICE_MEDIA_STORAGE").pipe(
        Config.withDefault<StorageName>(Option.isSome(dir) ? "fs" : "none")
      )
      switch (storage) {
        case "none":
          return MediaStorage.layerNone
        case "s3":
          if (options?.s3 === undefined) {
            return yield* Config.fail(
              new ConfigProvider.SourceError({
                message: "SERVICE_MEDIA_STORAGE=s3 needs the @veche/s3 adapter, which this host does not install"
              })
            )
          }
          return options.s3
        case "fs":
          if (Option.isNone(dir)) {
            return yield* Config.fail(
              new ConfigProvider.SourceError({ message: "SERVICE_MEDIA_STORAGE=fs needs SERVICE_MEDIA_DIR" })
            )
          }
          return FsMediaStorage.layer(dir.value)
      }
    })
  )
