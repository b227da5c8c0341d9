/**
 * The GIF search proxy (a user or a bot, like every route the spec does not mark): trending,
 * search and category tiles from the provider, in the mirrored platform's GIF object shape. 502
 * when the provider is unavailable. Pure data.
 */
import { BadGateway } from "@veche/errors"
import * as GifSchemas from "@veche/gifs/GifSchemas"
import { Effect, Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import * as Fields from "./Fields.ts"

/** The spec's GIF page limits: limit 1–50 (default 24), page ≥ 1 (default 1). */
export const MAX_LIMIT = 50
export const DEFAULT_LIMIT = 24

export const PageQuery = {
  page: Fields.queryIntBetween(1, Fields.INT32_MAX).pipe(Schema.withDecodingDefaultKey(Effect.succeed("1"))),
  limit: Fields.queryLimit(1, MAX_LIMIT, DEFAULT_LIMIT)
}

/** Search text: 1–100 characters, not only spaces. */
export const SearchText = Schema.String.pipe(
  Schema.check(
    Fields.betweenLength(1, 100),
    Schema.makeFilter((q: string) => q.trim() !== "", {
      message: "This field is required",
      formCode: "BASE_TYPE_REQUIRED"
    })
  )
)

export const SearchQuery = { q: SearchText, ...PageQuery }

export class GifsApi extends HttpApiGroup.make("gifs")
  .add(
    HttpApiEndpoint.get("gifTrending", "/gifs/trending", {
      query: PageQuery,
      success: GifSchemas.GifPage,
      error: BadGateway
    }),
    HttpApiEndpoint.get("gifSearch", "/gifs/search", {
      query: SearchQuery,
      success: GifSchemas.GifPage,
      error: BadGateway
    }),
    HttpApiEndpoint.get("gifCategories", "/gifs/categories", {
      success: GifSchemas.GifCategories,
      error: BadGateway
    })
  )
  .middleware(Authorization)
  .annotate(
    OpenApi.Description,
    "The GIF search proxy: the provider's key stays on the server, and the provider sees an anonymised customer id, never the user id."
  ) {}
