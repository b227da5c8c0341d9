/**
 * Picks the `MediaStorage` adapter from the environment, for hosts:
 *
 * - `SERVICE_MEDIA_STORAGE`: `none` (uploads answer 501), `fs` or `s3`. Default: `fs` when a folder
 *   is known (`SERVICE_MEDIA_DIR`, or the host's `defaultDir`), else `none`.
 * - `SERVICE_MEDIA_DIR`: the folder of `fs` (default: the host's `defaultDir`, e.g. the reference
 *   server's `<data folder>/media`).
 * - `s3` reads `S3_*` (see `S3MediaStorage.layerConfig`).
 */
import { Config, ConfigProvider, Effect, Layer, Option } from "effect"
import type { HttpClient } from "effect/http"
import * as FsMediaStorage from "./FsMediaStorage.ts"
import { MediaStorage } from "./MediaStorage.ts"
import * as S3MediaStorage from "./S3MediaStorage.ts"

export const STORAGES = ["none", "fs", "s3"] as const
export type StorageName = (typeof STORAGES)[number]

export interface Options {
  /** Where `fs` keeps objects when `SERVICE_MEDIA_DIR` is not set. */
  readonly defaultDir?: string | undefined
}

export const layerConfig = (options?: Options): Layer.Layer<MediaStorage, Config.ConfigError, HttpClient.HttpClient> =>
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
          return S3MediaStorage.layerConfig
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
