/**
 * The Media group: images by owner and hash, public (no credentials), as the mirrored platform's
 * CDN serves them. A hash names content, so answers are cacheable for good; a hash may carry an
 * image extension (`.png`, `.jpg`, `.gif`, `.webp`), which is ignored: the stored type is served.
 * Anything not stored, including ids and hashes of the wrong shape, is 404. Pure data.
 */
import { NotFound, ServiceUnavailable } from "@veche/errors"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"

/** The bytes, in the type they were stored as (PNG, JPEG, GIF or WebP). */
export const ImageBytes = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/*" }))

/** The client's copy (`If-None-Match` named the `ETag`) is current. */
export const NotModified = HttpApiSchema.Empty(304)

// Plain strings, never a failing decode: a malformed id or hash answers 404 like an unknown one.
const headers = { "if-none-match": Schema.optionalKey(Schema.String) }
const success = [ImageBytes, NotModified]
const error = [NotFound, ServiceUnavailable]
const byGuild = { guild_id: Schema.String, hash: Schema.String }
const byUser = { user_id: Schema.String, hash: Schema.String }
const byApplication = { application_id: Schema.String, hash: Schema.String }

export class MediaApi extends HttpApiGroup.make("media")
  .add(
    HttpApiEndpoint.get("icon", "/icons/:guild_id/:hash", { params: byGuild, headers, success, error }),
    HttpApiEndpoint.get("banner", "/banners/:guild_id/:hash", { params: byGuild, headers, success, error }),
    HttpApiEndpoint.get("avatar", "/avatars/:user_id/:hash", { params: byUser, headers, success, error }),
    HttpApiEndpoint.get("userBanner", "/user-banners/:user_id/:hash", { params: byUser, headers, success, error }),
    HttpApiEndpoint.get("applicationIcon", "/app-icons/:application_id/:hash", {
      params: byApplication,
      headers,
      success,
      error
    })
  )
  .annotate(
    OpenApi.Description,
    "Guild icons and banners, user avatars and profile banners, application icons by content hash; no credentials, cached for good."
  ) {}
