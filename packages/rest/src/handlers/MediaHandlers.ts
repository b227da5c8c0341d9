/**
 * Handlers of the Media group, and the mapping of image-upload failures for the routes that take
 * images (PATCH /users/@me, later PATCH /guilds/{id}).
 *
 * `build` implements the group; the host wires it with
 * `HttpApiBuilder.group(RestApi.RestApi, "media", MediaHandlers.build)`. The group is added to `RestApi`
 * after the API-wide middleware: an image route decodes nothing that can fail, and a page showing
 * fifty avatars must not spend the viewer's API rate limit.
 */
import { type MediaApi, RestApi } from "@veche/api"
import { InvalidFormBody, NotFound, NotImplemented, ServiceUnavailable } from "@veche/errors"
import { type ImageKind, type MediaErrors, ProfileImages } from "@veche/media"
import { Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"

/** A year, the longest period caches honour; a new image gets a new hash, hence a new URL. */
export const CACHE_CONTROL = "public, max-age=31536000, immutable"

/** Whether an `If-None-Match` value (a list of ETags, possibly weak, or `*`) names `etag`. */
export const matchesEtag = (ifNoneMatch: string | undefined, etag: string): boolean =>
  (ifNoneMatch ?? "")
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag)

const respond = (image: ProfileImages.StoredImage, ifNoneMatch: string | undefined) => {
  const headers = {
    "cache-control": CACHE_CONTROL,
    etag: image.etag,
    // A browser must not guess another type from the bytes (the type is ours, from re-encoding).
    "x-content-type-options": "nosniff"
  }
  return matchesEtag(ifNoneMatch, image.etag)
    ? HttpServerResponse.empty({ status: 304, headers })
    : HttpServerResponse.uint8Array(image.bytes, { contentType: image.contentType, headers })
}

export const build = (handlers: HttpApiBuilder.Handlers.FromGroup<typeof MediaApi.MediaApi>) =>
  Effect.gen(function* () {
    const images = yield* ProfileImages.ProfileImages
    const serve = (kind: ImageKind.ImageKind, owner: string, hash: string, ifNoneMatch: string | undefined) =>
      images.read(kind, owner, hash).pipe(
        Effect.catchTag("StorageUnavailable", (error) =>
          Effect.andThen(Effect.logWarning("media storage unavailable", error.reason), new ServiceUnavailable())
        ),
        Effect.flatMap(
          Option.match({
            onNone: () => Effect.fail(new NotFound()),
            onSome: (image) => Effect.succeed(respond(image, ifNoneMatch))
          })
        )
      )
    return handlers
      .handle("icon", ({ params, headers }) => serve("icons", params.guild_id, params.hash, headers["if-none-match"]))
      .handle("banner", ({ params, headers }) =>
        serve("banners", params.guild_id, params.hash, headers["if-none-match"])
      )
      .handle("avatar", ({ params, headers }) =>
        serve("avatars", params.user_id, params.hash, headers["if-none-match"])
      )
      .handle("userBanner", ({ params, headers }) =>
        serve("user-banners", params.user_id, params.hash, headers["if-none-match"])
      )
      .handle("applicationIcon", ({ params, headers }) =>
        serve("app-icons", params.application_id, params.hash, headers["if-none-match"])
      )
  })

export const layer = HttpApiBuilder.group(RestApi.RestApi, "media", build)

/**
 * For the routes that take an image field: `Effect.catchTags(uploadErrors("avatar"))` turns a
 * refused image into 400 50035 on that field, no storage into 501, a storage outage into 503.
 */
export const uploadErrors = (field: string) => ({
  ImageRejected: (error: MediaErrors.ImageRejected) =>
    Effect.fail(InvalidFormBody.field([field], error.code, error.message)),
  StorageNotConnected: () => Effect.fail(new NotImplemented()),
  StorageUnavailable: (error: MediaErrors.StorageUnavailable) =>
    Effect.andThen(Effect.logWarning("media storage unavailable", error.reason), new ServiceUnavailable())
})
