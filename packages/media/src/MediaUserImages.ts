/**
 * The users domain's UserImages port answered by ProfileImages: avatars and banners are checked,
 * re-encoded and stored as the media routes serve them (`avatars/…`, `user-banners/…`). Media's
 * refusals become the users domain's: a refused image names its field, a storage outage is logged
 * here (the answer to the person says only "unavailable").
 */
import { UserImages, UsersErrors } from "@veche/users"
import { Effect, Layer } from "effect"
import type { ImageKind } from "./ImageKind.ts"
import { discard, ProfileImages } from "./ProfileImages.ts"

const kindOf = (kind: UserImages.Kind): ImageKind => (kind === "avatar" ? "avatars" : "user-banners")

export const layer: Layer.Layer<UserImages.UserImages, never, ProfileImages> = Layer.effect(
  UserImages.UserImages,
  Effect.map(Effect.service(ProfileImages), (images) =>
    UserImages.UserImages.of({
      store: (kind, userId, dataUri, animation) =>
        images.store(kindOf(kind), userId, dataUri, { animation }).pipe(
          Effect.catchTags({
            ImageRejected: (error) =>
              Effect.fail(new UsersErrors.ImageRefused({ field: kind, code: error.code, message: error.message })),
            StorageNotConnected: () => Effect.fail(new UsersErrors.ImageStorageNotConnected()),
            StorageUnavailable: (error) =>
              Effect.andThen(
                Effect.logWarning("media storage unavailable", error.reason),
                Effect.fail(new UsersErrors.ImageStorageUnavailable())
              )
          })
        ),
      remove: (kind, userId, hash) => discard(images, kindOf(kind), userId, hash)
    })
  )
)
