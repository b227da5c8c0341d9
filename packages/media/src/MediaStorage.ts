/**
 * The port to wherever image bytes live, with two adapters that need nothing: process memory (tests,
 * throwaway hosts) and "none" (no storage connected: uploads answer 501, reads find nothing). The
 * filesystem adapter is `FsMediaStorage` (node:fs only, so it sits here); the S3-compatible one is
 * `S3MediaStorage` in `@veche/s3`. `MediaStorageConfig` picks one from the environment.
 *
 * Objects are immutable in practice: a key names content by its digest, so a key is written once
 * and a second put of it writes the same bytes. Keys follow `MediaKey`: `put` and `remove` treat a
 * key outside those rules as a defect (callers build keys), `get` as simply absent (it may come
 * from a URL).
 */
import { Context, Effect, Layer, Option, Ref } from "effect"
import { StorageNotConnected, type StorageUnavailable } from "./MediaErrors.ts"
import * as MediaKey from "./MediaKey.ts"

export interface StoredObject {
  readonly bytes: Uint8Array
  readonly contentType: string
}

export class MediaStorage extends Context.Service<
  MediaStorage,
  {
    /** False for "none": callers refuse uploads up front rather than after processing them. */
    readonly connected: boolean
    readonly put: (
      key: string,
      bytes: Uint8Array,
      contentType: string
    ) => Effect.Effect<void, StorageNotConnected | StorageUnavailable>
    readonly get: (key: string) => Effect.Effect<Option.Option<StoredObject>, StorageUnavailable>
    /** Removing what is not there succeeds. */
    readonly remove: (key: string) => Effect.Effect<void, StorageUnavailable>
  }
>()("@veche/media/MediaStorage") {
  /** Objects in process memory; nothing survives the process. */
  static readonly makeMemory: Effect.Effect<MediaStorage["Service"]> = Effect.gen(function* () {
    const objects = yield* Ref.make(new Map<string, StoredObject>())
    // Copies in and out, as a real store does: a caller reusing its buffer cannot change what is stored.
    return MediaStorage.of({
      connected: true,
      put: (key, bytes, contentType) =>
        MediaKey.isValid(key)
          ? Ref.update(objects, (map) => new Map(map).set(key, { bytes: Uint8Array.from(bytes), contentType }))
          : Effect.die(MediaKey.invalidKeyDefect(key)),
      get: (key) =>
        Ref.get(objects).pipe(
          Effect.map((map) =>
            Option.map(Option.fromUndefinedOr(map.get(key)), (object) => ({
              bytes: Uint8Array.from(object.bytes),
              contentType: object.contentType
            }))
          )
        ),
      remove: (key) =>
        MediaKey.isValid(key)
          ? Ref.update(objects, (map) => {
              if (!map.has(key)) return map
              const next = new Map(map)
              next.delete(key)
              return next
            })
          : Effect.die(MediaKey.invalidKeyDefect(key))
    })
  })

  static readonly layerMemory: Layer.Layer<MediaStorage> = Layer.effect(MediaStorage, MediaStorage.makeMemory)

  /**
   * No storage connected (`SERVICE_MEDIA_STORAGE=none`): every put fails with StorageNotConnected,
   * nothing is ever found, and removing succeeds (there is nothing to remove).
   */
  static readonly layerNone: Layer.Layer<MediaStorage> = Layer.succeed(
    MediaStorage,
    MediaStorage.of({
      connected: false,
      put: () => Effect.fail(new StorageNotConnected()),
      get: () => Effect.succeed(Option.none()),
      remove: () => Effect.void
    })
  )
}
