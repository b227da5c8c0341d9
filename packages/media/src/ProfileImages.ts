/**
 * Images of users and guilds (avatars, banners, icons): an upload is checked and re-encoded
 * (`ImageUpload`, through the host's `ImageCodec`) and stored under `<kind>/<owner id>/<hash>`;
 * the media routes read it back by the same three parts. Re-encoding is CPU-heavy, so at most `concurrency` uploads are processed
 * at once (default: the number of CPUs); the rest wait their turn instead of starving other routes.
 */
import { availableParallelism } from "node:os"
import { Config, Context, Effect, Layer, Option, Semaphore } from "effect"
import { ImageCodec } from "./ImageCodec.ts"
import * as ImageKind from "./ImageKind.ts"
import * as ImageUpload from "./ImageUpload.ts"
import { type ImageRejected, StorageNotConnected, type StorageUnavailable } from "./MediaErrors.ts"
import { MediaStorage } from "./MediaStorage.ts"

/** An image as the media routes answer it. */
export interface StoredImage {
  readonly bytes: Uint8Array
  readonly contentType: string
  /** Quoted, as the `ETag` header carries it: the hash names the content. */
  readonly etag: string
}

/**
 * Deletes the image an owner stopped showing (`before`, replaced by `after`), to run once the
 * change that dropped it has committed: a replaced or erased image must not stay public. The same
 * hash on both sides is the same object and stays. A failed delete is logged, never the caller's
 * failure: the change stands and the object is only orphaned.
 */
export const discard = (
  images: ProfileImages["Service"],
  kind: ImageKind.ImageKind,
  ownerId: string,
  before: string | null | undefined,
  after?: string | null | undefined
): Effect.Effect<void> =>
  before === null || before === undefined || before === after
    ? Effect.void
    : images
        .remove(kind, ownerId, before)
        .pipe(
          Effect.catchCause((cause) =>
            Effect.logWarning(`could not delete the image ${kind}/${ownerId}/${before}`, cause)
          )
        )

export interface Options {
  /** Uploads processed at once; default the number of CPUs. */
  readonly concurrency?: number | undefined
}

// Snowflakes: decimal, at most 20 digits (2^64).
const OWNER_ID = /^[0-9]{1,20}$/
// What the media routes may append to a hash, as the mirrored platform's CDN allows.
const EXTENSION = /\.(?:png|jpe?g|gif|webp)$/i

const keyOf = (kind: ImageKind.ImageKind, ownerId: string, hash: string): string => `${kind}/${ownerId}/${hash}`

export class ProfileImages extends Context.Service<
  ProfileImages,
  {
    /** Checks, re-encodes and stores the image of a data URI; answers its hash. */
    readonly store: (
      kind: ImageKind.ImageKind,
      ownerId: string,
      dataUri: string,
      options?: ImageUpload.Options
    ) => Effect.Effect<string, ImageRejected | StorageNotConnected | StorageUnavailable>
    /**
     * The stored image, if any. `hash` may end in an image extension (ignored); an owner id or hash
     * of the wrong shape is simply not found.
     */
    readonly read: (
      kind: ImageKind.ImageKind,
      ownerId: string,
      hash: string
    ) => Effect.Effect<Option.Option<StoredImage>, StorageUnavailable>
    /** Deletes a stored image (after the owner replaced or removed it); absent or malformed: nothing to do. */
    readonly remove: (
      kind: ImageKind.ImageKind,
      ownerId: string,
      hash: string
    ) => Effect.Effect<void, StorageUnavailable>
  }
>()("@veche/media/ProfileImages") {
  static readonly make = (
    options?: Options
  ): Effect.Effect<ProfileImages["Service"], never, MediaStorage | ImageCodec> =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const codec = yield* ImageCodec
      const permits = Math.max(1, Math.floor(options?.concurrency ?? availableParallelism()))
      const processing = yield* Semaphore.make(permits)

      const store = Effect.fn("ProfileImages.store")(function* (
        kind: ImageKind.ImageKind,
        ownerId: string,
        dataUri: string,
        options?: ImageUpload.Options
      ) {
        // Refused before any work: with no storage the answer is 501 whatever the image.
        if (!storage.connected) return yield* new StorageNotConnected()
        // The owner is the caller or a guild it manages, never text from a request: a bad id is a bug.
        if (!OWNER_ID.test(ownerId)) return yield* Effect.die(new Error(`ProfileImages: bad owner id ${ownerId}`))
        const image = yield* processing.withPermit(
          ImageUpload.process(dataUri, ImageKind.limits[kind], options).pipe(Effect.provideService(ImageCodec, codec))
        )
        yield* storage.put(keyOf(kind, ownerId, image.hash), image.bytes, image.contentType)
        return image.hash
      })

      /** The key of a route's owner id and hash (extension dropped), when both are well formed. */
      const keyFromRoute = (kind: ImageKind.ImageKind, ownerId: string, hash: string): Option.Option<string> => {
        const bare = hash.replace(EXTENSION, "")
        return OWNER_ID.test(ownerId) && ImageUpload.HASH.test(bare)
          ? Option.some(keyOf(kind, ownerId, bare))
          : Option.none()
      }

      const read = Effect.fn("ProfileImages.read")(function* (
        kind: ImageKind.ImageKind,
        ownerId: string,
        hash: string
      ) {
        const key = keyFromRoute(kind, ownerId, hash)
        if (Option.isNone(key)) return Option.none<StoredImage>()
        const object = yield* storage.get(key.value)
        const etag = `"${key.value.slice(key.value.lastIndexOf("/") + 1)}"`
        return Option.map(
          object,
          (found): StoredImage => ({ bytes: found.bytes, contentType: found.contentType, etag })
        )
      })

      const remove = Effect.fn("ProfileImages.remove")(function* (
        kind: ImageKind.ImageKind,
        ownerId: string,
        hash: string
      ) {
        const key = keyFromRoute(kind, ownerId, hash)
        if (Option.isSome(key)) yield* storage.remove(key.value)
      })

      return ProfileImages.of({ store, read, remove })
    })

  static readonly layer = (options?: Options): Layer.Layer<ProfileImages, never, MediaStorage | ImageCodec> =>
    Layer.effect(ProfileImages, ProfileImages.make(options))

  /** `SERVICE_MEDIA_CONCURRENCY`: uploads processed at once (default: the number of CPUs). */
  static readonly layerConfig: Layer.Layer<ProfileImages, Config.ConfigError, MediaStorage | ImageCodec> = Layer.unwrap(
    Effect.gen(function* () {
      const concurrency = yield* Config.option(Config.Int("SERVICE_MEDIA_CONCURRENCY"))
      return ProfileImages.layer({ concurrency: Option.getOrUndefined(concurrency) })
    })
  )
}
