import { mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer } from "effect"
import { FetchHttpClient } from "effect/http"
import { MediaStorage } from "../src/MediaStorage.ts"
import * as MediaStorageConfig from "../src/MediaStorageConfig.ts"

const temporaryFolder = Effect.acquireRelease(
  Effect.promise(() => mkdtemp(join(tmpdir(), "veche-media-config-"))),
  (folder) => Effect.promise(() => rm(folder, { recursive: true, force: true }))
)

const storageWith = (env: Record<string, string>, options?: MediaStorageConfig.Options) =>
  Effect.service(MediaStorage).pipe(
    Effect.provide(
      MediaStorageConfig.layerConfig(options).pipe(
        Layer.provide(Layer.mergeAll(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), FetchHttpClient.layer))
      )
    )
  )

const KEY = "avatars/1/0123456789abcdef0123456789abcdef"

describe("MediaStorageConfig.layerConfig", () => {
  it.effect("without a folder or a choice: no storage", () =>
    Effect.gen(function* () {
      expect((yield* storageWith({})).connected).toBe(false)
    })
  )

  it.effect("with the host's default folder: the filesystem under it", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const storage = yield* storageWith({}, { defaultDir: join(folder, "media") })
      yield* storage.put(KEY, Uint8Array.of(1), "image/png")
      expect(yield* Effect.promise(() => readdir(join(folder, "media")))).toEqual(["avatars"])
    })
  )

  it.effect("SERVICE_MEDIA_DIR overrides the default folder; SERVICE_MEDIA_STORAGE=none turns storage off", () =>
    Effect.gen(function* () {
      const folder = yield* temporaryFolder
      const storage = yield* storageWith(
        { SERVICE_MEDIA_DIR: join(folder, "elsewhere") },
        { defaultDir: "/nonexistent" }
      )
      yield* storage.put(KEY, Uint8Array.of(1), "image/png")
      expect(yield* Effect.promise(() => readdir(folder))).toEqual(["elsewhere"])
      const none = yield* storageWith({ SERVICE_MEDIA_STORAGE: "none" }, { defaultDir: folder })
      expect(none.connected).toBe(false)
    })
  )

  it.effect("s3 without the host's S3 adapter is a configuration error", () =>
    Effect.gen(function* () {
      const error = yield* storageWith({
        SERVICE_MEDIA_STORAGE: "s3",
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "k",
        S3_SECRET_ACCESS_KEY: "s"
      }).pipe(Effect.flip)
      expect(error._tag).toBe("ConfigError")
      expect(String(error)).toContain("@veche/s3")
    })
  )

  it.effect("fs without any folder, or an unknown storage name, is a configuration error", () =>
    Effect.gen(function* () {
      expect((yield* storageWith({ SERVICE_MEDIA_STORAGE: "fs" }).pipe(Effect.flip))._tag).toBe("ConfigError")
      expect((yield* storageWith({ SERVICE_MEDIA_STORAGE: "ftp" }).pipe(Effect.flip))._tag).toBe("ConfigError")
    })
  )
})
