/**
 * The GIF proxy: trending, search and category tiles from the provider, for a user. The provider
 * learns an anonymised customer id, the user's locale and a content filter by their age, never who
 * they are. Answers are cached by what was asked (query, page, locale, filter), not by who asked,
 * so users with the same locale and filter share pages; a failing cache only costs a provider call.
 */
import { type Snowflake, Spans } from "@veche/platform"
import { Context, DateTime, Effect, Layer, Option, Schema } from "effect"
import type { Mac } from "effect/crypto"
import * as CustomerIds from "./CustomerIds.ts"
import { GifCache } from "./GifCache.ts"
import { type Audience, type ContentFilter, GifProvider } from "./GifProvider.ts"
import { GifCategories, GifPage } from "./GifSchemas.ts"
import { GifsConfig } from "./GifsConfig.ts"
import type { GifProviderUnavailable } from "./GifsErrors.ts"
import { GifViewers } from "./GifViewers.ts"

export interface Paging {
  readonly page: number
  readonly limit: number
}

/** Whole years between a `YYYY-MM-DD` birth date and a day, by the calendar. */
export const ageOn = (dateOfBirth: string, today: DateTime.Utc): number => {
  const [year = 0, month = 1, day = 1] = dateOfBirth.split("-").map(Number)
  const parts = DateTime.toPartsUtc(today)
  const hadBirthday = parts.month > month || (parts.month === month && parts.day >= day)
  return parts.year - year - (hadBirthday ? 0 : 1)
}

/**
 * A settings locale as providers spell it: `en-US` → `en_US`, `ru` → `ru`; anything else (the
 * settings accept free text) → null, the provider's default.
 */
export const providerLocale = (locale: string): string | null => {
  const match = /^([a-z]{2,3})(?:[-_]([a-z]{2}))?$/i.exec(locale.trim())
  if (match === null) return null
  const language = (match[1] as string).toLowerCase()
  return match[2] === undefined ? language : `${language}_${match[2].toUpperCase()}`
}

/** Search text as it is asked and cached: trimmed, single spaces, lower case (searches ignore case). */
export const normaliseQuery = (q: string): string => q.trim().replace(/\s+/g, " ").toLowerCase()

const ADULT_AGE = 18

export class Gifs extends Context.Service<
  Gifs,
  {
    readonly trending: (userId: Snowflake.Snowflake, paging: Paging) => Effect.Effect<GifPage, GifProviderUnavailable>
    readonly search: (
      userId: Snowflake.Snowflake,
      q: string,
      paging: Paging
    ) => Effect.Effect<GifPage, GifProviderUnavailable>
    readonly categories: (userId: Snowflake.Snowflake) => Effect.Effect<GifCategories, GifProviderUnavailable>
  }
>()("@veche/gifs/Gifs") {
  static readonly layer: Layer.Layer<Gifs, never, GifProvider | GifCache | GifViewers | GifsConfig | Mac.Mac> =
    Layer.effect(
      Gifs,
      Effect.gen(function* () {
        const provider = yield* GifProvider
        const cache = yield* GifCache
        const viewers = yield* GifViewers
        const config = yield* GifsConfig
        const customerIds = yield* CustomerIds.make(config.customerKey)

        const audience = Spans.fn("Gifs.audience")(function* (userId: Snowflake.Snowflake) {
          const viewer = yield* viewers.read(userId)
          const now = yield* DateTime.now
          // Unknown age (bots) gets the strict filter, as a minor would.
          const adult = viewer.dateOfBirth !== null && ageOn(viewer.dateOfBirth, now) >= ADULT_AGE
          const contentFilter: ContentFilter = adult ? config.adultContentFilter : "high"
          return {
            customerId: yield* customerIds.of(userId),
            locale: providerLocale(viewer.locale),
            contentFilter
          } satisfies Audience
        })

        /**
         * The cached answer for `key`, else the provider's (kept for `ttl`). An entry that no longer
         * decodes (another version wrote it) is a miss.
         */
        const cached = <S extends Schema.Codec<unknown, unknown>>(
          schema: S,
          key: string,
          ttl: Parameters<GifCache["Service"]["set"]>[2],
          ask: Effect.Effect<S["Type"], GifProviderUnavailable>
        ): Effect.Effect<S["Type"], GifProviderUnavailable> => {
          const json = Schema.fromJsonString(schema)
          const decode = Schema.decodeUnknownOption(json)
          const encode = Schema.encodeUnknownOption(json)
          return Effect.gen(function* () {
            const hit = Option.flatMap(yield* cache.get(key), (text) => decode(text))
            if (Option.isSome(hit)) return hit.value as S["Type"]
            // The reason is for the operator; the client gets a bare 502.
            const answer = yield* ask.pipe(
              Effect.tapError((failure) =>
                Effect.logWarning(`GIF provider ${provider.name} unavailable: ${failure.reason}`)
              )
            )
            const text = encode(answer)
            if (Option.isSome(text) && typeof text.value === "string") yield* cache.set(key, text.value, ttl)
            return answer
          })
        }

        /** What was asked, never who asked; the provider's name keeps providers' answers apart. */
        const keyOf = (kind: string, target: Audience, ...parts: ReadonlyArray<string | number>) =>
          ["gifs", provider.name, kind, target.locale ?? "-", target.contentFilter, ...parts].join(":")

        return Gifs.of({
          trending: Spans.fn("Gifs.trending")(function* (userId, paging) {
            const target = yield* audience(userId)
            return yield* cached(
              GifPage,
              keyOf("trending", target, paging.page, paging.limit),
              config.cacheTtl,
              provider.trending({ ...target, ...paging })
            )
          }),
          search: Spans.fn("Gifs.search")(function* (userId, q, paging) {
            const target = yield* audience(userId)
            const query = normaliseQuery(q)
            return yield* cached(
              GifPage,
              keyOf("search", target, paging.page, paging.limit, query),
              config.cacheTtl,
              provider.search({ ...target, ...paging, q: query })
            )
          }),
          categories: Spans.fn("Gifs.categories")(function* (userId) {
            const target = yield* audience(userId)
            return yield* cached(
              GifCategories,
              keyOf("categories", target),
              config.categoriesCacheTtl,
              provider.categories(target)
            )
          })
        })
      })
    )
}
