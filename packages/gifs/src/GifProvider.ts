/**
 * The port the GIF proxy asks: a provider's trending list, its search and its category tiles, each
 * already in the mirrored platform's GIF shape (adapters map their provider's answer and drop what
 * is not a GIF, such as ads). Adapters: `layerNone` (every call unavailable: 502), the dev fixtures
 * (`DevGifProvider`), KLIPY (`@veche/klipy`).
 *
 * What a call says about the person asking is only what the provider needs to tailor its answer:
 * an anonymised customer id (never the user id), the locale and the content filter.
 */
import { Context, Effect, Layer } from "effect"
import type { GifCategories, GifPage } from "./GifSchemas.ts"
import { GifProviderUnavailable } from "./GifsErrors.ts"

/** How strict the provider's content rating is (KLIPY's and Tenor's names). */
export const CONTENT_FILTERS = ["off", "low", "medium", "high"] as const
export type ContentFilter = (typeof CONTENT_FILTERS)[number]

/** Who is asking, as far as the provider may know. */
export interface Audience {
  /** Stable per user, not reversible to the user id (see `CustomerIds`). */
  readonly customerId: string
  /** A provider locale such as `ru` or `en_US`; null lets the provider choose. */
  readonly locale: string | null
  readonly contentFilter: ContentFilter
}

export interface PageRequest extends Audience {
  /** 1-based. */
  readonly page: number
  readonly limit: number
}

export interface SearchRequest extends PageRequest {
  readonly q: string
}

export class GifProvider extends Context.Service<
  GifProvider,
  {
    /** For logs and the cache key: answers of different providers never mix. */
    readonly name: string
    readonly trending: (request: PageRequest) => Effect.Effect<GifPage, GifProviderUnavailable>
    readonly search: (request: SearchRequest) => Effect.Effect<GifPage, GifProviderUnavailable>
    readonly categories: (audience: Audience) => Effect.Effect<GifCategories, GifProviderUnavailable>
  }
>()("@veche/gifs/GifProvider") {
  /** No provider connected (`SERVICE_GIFS_PROVIDER=none`): every GIF route answers 502. */
  static readonly layerNone: Layer.Layer<GifProvider> = Layer.succeed(
    GifProvider,
    GifProvider.of(
      (() => {
        const none = Effect.fail(new GifProviderUnavailable({ reason: "no GIF provider is configured" }))
        return { name: "none", trending: () => none, search: () => none, categories: () => none }
      })()
    )
  )
}
