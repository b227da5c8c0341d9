import { describe, expect, it } from "@effect/vitest"
import { MediaErrors, MediaStorage, ProfileImages } from "@veche/media"
import { ConfigProvider, Effect, Layer, Option } from "effect"
import * as SharpImageCodec from "../src/SharpImageCodec.ts"
import * as TestImages from "./support/TestImages.ts"

const USER = "175928847299117063"
const make = <A>(promise: () => Promise<A>) => Effect.promise(promise)

/** ProfileImages over the sharp codec (what a host running @veche/sharp gets) and a memory store the test can also look into. */
const withImages = <A, E>(
  body: (
    images: ProfileImages.ProfileImages["Service"],
    storage: MediaStorage.MediaStorage["Service"]
  ) => Effect.Effect<A, E>,
  storageLayer: Layer.Layer<MediaStorage.MediaStorage> = MediaStorage.MediaStorage.layerMemory
) =>
  Effect.gen(function* () {
    return yield* body(yield* ProfileImages.ProfileImages, yield* MediaStorage.MediaStorage)
  }).pipe(
    Effect.provide(
      ProfileImages.ProfileImages.layer().pipe(Layer.provide(SharpImageCodec.layer), Layer.provideMerge(storageLayer))
    )
  )

describe("ProfileImages", () => {
  it.effect("stores a processed image under <kind>/<owner>/<hash> and reads it back with a quoted ETag", () =>
    withImages((images, storage) =>
      Effect.gen(function* () {
        const png = yield* make(() => TestImages.png(32, 32))
        const hash = yield* images.store("avatars", USER, TestImages.dataUri(png, "image/jpeg"))
        expect(hash).toMatch(/^[0-9a-f]{32}$/)
        const stored = Option.getOrThrow(yield* storage.get(`avatars/${USER}/${hash}`))
        expect(stored.contentType).toBe("image/png")
        const image = Option.getOrThrow(yield* images.read("avatars", USER, hash))
        expect(image.contentType).toBe("image/png")
        expect(image.etag).toBe(`"${hash}"`)
        expect(Array.from(image.bytes)).toEqual(Array.from(stored.bytes))
      })
    )
  )

  it.effect("an animated upload gets an a_ hash and is read back as GIF", () =>
    withImages((images) =>
      Effect.gen(function* () {
        const gif = yield* make(() => TestImages.animated("gif", 16, 16, 3))
        const hash = yield* images.store("user-banners", USER, TestImages.dataUri(gif, "image/gif"))
        expect(hash.startsWith("a_")).toBe(true)
        const image = Option.getOrThrow(yield* images.read("user-banners", USER, `${hash}.gif`))
        expect(image.contentType).toBe("image/gif")
        expect((yield* make(() => TestImages.metadataOf(image.bytes))).pages).toBe(3)
      })
    )
  )

  it.effect("read ignores an image extension on the hash, whatever the stored type", () =>
    withImages((images) =>
      Effect.gen(function* () {
        const hash = yield* images.store("icons", USER, TestImages.dataUri(yield* make(() => TestImages.webp(8, 8))))
        for (const suffix of ["", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".PNG"]) {
          const found = yield* images.read("icons", USER, `${hash}${suffix}`)
          expect({ suffix, type: Option.map(found, (i) => i.contentType) }).toEqual({
            suffix,
            type: Option.some("image/webp")
          })
        }
      })
    )
  )

  it.effect("unknown, malformed or other-kind lookups find nothing", () =>
    withImages((images) =>
      Effect.gen(function* () {
        const hash = yield* images.store("avatars", USER, TestImages.dataUri(yield* make(() => TestImages.png(8, 8))))
        const lookups: ReadonlyArray<readonly [Parameters<typeof images.read>[0], string, string]> = [
          ["avatars", USER, "0123456789abcdef0123456789abcdef"],
          ["user-banners", USER, hash],
          ["avatars", "175928847299117064", hash],
          ["avatars", USER, hash.toUpperCase()],
          ["avatars", USER, `${hash}.svg`],
          ["avatars", USER, `${hash}.png.png`],
          ["avatars", USER, `../${hash}`],
          ["avatars", `../${USER}`, hash],
          ["avatars", "@me", hash],
          ["avatars", USER, ""],
          ["avatars", USER, `b_${hash}`]
        ]
        for (const [kind, owner, lookup] of lookups) {
          expect({ kind, owner, lookup, found: Option.isSome(yield* images.read(kind, owner, lookup)) }).toEqual({
            kind,
            owner,
            lookup,
            found: false
          })
        }
      })
    )
  )

  it.effect("a refused image is not stored", () =>
    withImages((images, storage) =>
      Effect.gen(function* () {
        const big = yield* make(() => TestImages.png(1025, 16))
        const error = yield* images.store("avatars", USER, TestImages.dataUri(big)).pipe(Effect.flip)
        expect(error._tag).toBe("ImageRejected")
        const garbage = yield* images.store("avatars", USER, "data:image/png;base64,AAAA").pipe(Effect.flip)
        expect(garbage._tag).toBe("ImageRejected")
        // nothing under the owner
        expect(Option.isNone(yield* storage.get(`avatars/${USER}/x`))).toBe(true)
      })
    )
  )

  it.effect("remove deletes the stored image; removing unknown or malformed hashes is harmless", () =>
    withImages((images) =>
      Effect.gen(function* () {
        const hash = yield* images.store("banners", USER, TestImages.dataUri(yield* make(() => TestImages.png(8, 8))))
        yield* images.remove("banners", USER, hash)
        expect(Option.isNone(yield* images.read("banners", USER, hash))).toBe(true)
        yield* images.remove("banners", USER, hash)
        yield* images.remove("banners", USER, "../../etc/passwd")
      })
    )
  )

  it.effect("with no storage connected, store answers StorageNotConnected before looking at the image", () =>
    withImages(
      (images) =>
        Effect.gen(function* () {
          const error = yield* images.store("avatars", USER, "not even a data uri").pipe(Effect.flip)
          expect(error._tag).toBe("StorageNotConnected")
          expect(Option.isNone(yield* images.read("avatars", USER, "0123456789abcdef0123456789abcdef"))).toBe(true)
        }),
      MediaStorage.MediaStorage.layerNone
    )
  )

  it.effect("uploads beyond the concurrency bound wait their turn and all complete", () =>
    Effect.gen(function* () {
      const images = yield* ProfileImages.ProfileImages
      const pngs = yield* Effect.forEach([1, 2, 3, 4], (seed) => make(() => TestImages.png(64, 64, seed)))
      const hashes = yield* Effect.forEach(pngs, (png) => images.store("avatars", USER, TestImages.dataUri(png)), {
        concurrency: "unbounded"
      })
      expect(new Set(hashes).size).toBe(4)
    }).pipe(
      Effect.provide(
        ProfileImages.ProfileImages.layerConfig.pipe(
          Layer.provide(SharpImageCodec.layer),
          Layer.provide(MediaStorage.MediaStorage.layerMemory),
          Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({ SERVICE_MEDIA_CONCURRENCY: "1" })))
        )
      )
    )
  )

  it.effect("discard deletes a replaced image, keeps an unchanged one, and only logs a failed delete", () =>
    Effect.gen(function* () {
      yield* withImages((images, storage) =>
        Effect.gen(function* () {
          const png = yield* make(() => TestImages.png(32, 32))
          const hash = yield* images.store("avatars", USER, TestImages.dataUri(png, "image/png"))
          yield* ProfileImages.discard(images, "avatars", USER, hash, hash)
          expect(Option.isSome(yield* storage.get(`avatars/${USER}/${hash}`))).toBe(true)
          yield* ProfileImages.discard(images, "avatars", USER, hash, null)
          expect(Option.isNone(yield* storage.get(`avatars/${USER}/${hash}`))).toBe(true)
        })
      )
      const failing = Layer.effect(
        MediaStorage.MediaStorage,
        Effect.map(MediaStorage.MediaStorage.makeMemory, (memory) =>
          MediaStorage.MediaStorage.of({
            ...memory,
            remove: () => Effect.fail(new MediaErrors.StorageUnavailable({ reason: "down" }))
          })
        )
      )
      yield* withImages(
        (images) => ProfileImages.discard(images, "avatars", USER, "0123456789abcdef0123456789abcdef"),
        failing
      )
    })
  )
})
