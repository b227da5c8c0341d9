/**
 * `GifProvider` over KLIPY's native API v1: `GET {base}/{app_key}/gifs/{trending|search|categories}`
 * with `page`, `per_page`, `q`, `customer_id`, `locale`, `content_filter` and `format_filter`.
 * The app key travels only in the request path to KLIPY: never in a log line, an error or an answer.
 * No ad parameters are sent (KLIPY adds ad slots only when asked), and any item that is not a GIF is
 * dropped all the same.
 *
 * KLIPY's `per_page` starts at 8 (its public clients say 8–50), while our pages may be smaller: a
 * smaller page is read from the KLIPY page that holds it, whose size is a multiple of ours, so one
 * call still answers one page.
 *
 * Every failure (unreachable, a status other than 200, an answer that does not decode, a timeout)
 * is `GifProviderUnavailable`: the route answers 502.
 */
import { GifProvider, type GifSchemas, GifsErrors } from "@veche/gifs"
import * as Urls from "@veche/platform/Urls"
import { Config, ConfigProvider, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as KlipyAnswers from "./KlipyAnswers.ts"

export const DEFAULT_BASE_URL = "https://api.klipy.com/api/v1"
/** Long enough for a slow answer, short enough for a person waiting on a picker. */
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.seconds(3)
/** KLIPY's smallest `per_page`. */
export const MIN_PER_PAGE = 8
/** What we ask files in: the renditions the GIF object is made of. */
const FORMAT_FILTER = "gif,webp,mp4,jpg"

export interface Options {
  /** The app key from partner.klipy.com. */
  readonly apiKey: Redacted.Redacted<string>
  /** Default `https://api.klipy.com/api/v1`; tests point it at a local fake. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.Duration | undefined
}

/** Where our page `page` of `limit` lies in KLIPY's pages: which one, its size, and the offset in it. */
export const klipyPage = (page: number, limit: number) => {
  const perPage = limit >= MIN_PER_PAGE ? limit : limit * Math.ceil(MIN_PER_PAGE / limit)
  const pagesPerKlipyPage = perPage / limit
  return {
    page: Math.floor((page - 1) / pagesPerKlipyPage) + 1,
    perPage,
    offset: ((page - 1) % pagesPerKlipyPage) * limit
  }
}

const unavailable = (reason: string) => new GifsErrors.GifProviderUnavailable({ reason: `KLIPY: ${reason}` })

export const make = (
  options: Options
): Effect.Effect<GifProvider.GifProvider["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const base = Urls.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)
    const root = `${base}/${encodeURIComponent(Redacted.value(options.apiKey))}/gifs`
    const timeout = options.timeout ?? DEFAULT_TIMEOUT

    /** One call, its JSON answer decoded with `schema`, all within the time limit. */
    const ask = <S extends Schema.Codec<unknown, unknown>>(
      endpoint: string,
      params: Record<string, string>,
      schema: S
    ): Effect.Effect<S["Type"], GifsErrors.GifProviderUnavailable> => {
      const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(schema))
      const request = HttpClientRequest.get(`${root}/${endpoint}`).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.setUrlParams(params)
      )
      return client.execute(request).pipe(
        // The reason names the failure's kind only: the request's URL carries the app key.
        Effect.mapError((error) => unavailable(`unreachable (${error.reason._tag})`)),
        Effect.flatMap((response) =>
          response.status !== 200
            ? Effect.fail(unavailable(`answered HTTP ${response.status}`))
            : response.text.pipe(
                Effect.mapError(() => unavailable("answer unreadable")),
                Effect.flatMap((text) => decode(text).pipe(Effect.mapError(() => unavailable("unexpected answer"))))
              )
        ),
        // The limit covers connecting, the headers and the body; interruption aborts the request.
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(unavailable(`timed out after ${Duration.format(timeout)}`))
        })
      ) as Effect.Effect<S["Type"], GifsErrors.GifProviderUnavailable>
    }

    const audienceParams = (audience: GifProvider.Audience): Record<string, string> => ({
      customer_id: audience.customerId,
      content_filter: audience.contentFilter,
      ...(audience.locale === null ? {} : { locale: audience.locale })
    })

    const list = (endpoint: string, request: GifProvider.PageRequest, extra: Record<string, string>) => {
      const at = klipyPage(request.page, request.limit)
      return Effect.map(
        ask(
          endpoint,
          {
            ...extra,
            page: String(at.page),
            per_page: String(at.perPage),
            format_filter: FORMAT_FILTER,
            ...audienceParams(request)
          },
          KlipyAnswers.ListAnswer
        ),
        (answer): GifSchemas.GifPage => {
          // Ads and unusable items go before our page is cut from KLIPY's: a slot they took never
          // pushes a GIF out of every page (with per_page = limit, the cut keeps all that is left).
          const gifs = KlipyAnswers.gifsOf(answer.data.data)
          const end = at.offset + request.limit
          return {
            gifs: gifs.slice(at.offset, end),
            page: request.page,
            limit: request.limit,
            has_more: end < gifs.length || answer.data.has_next
          }
        }
      )
    }

    return GifProvider.GifProvider.of({
      name: "klipy",
      trending: (request) => list("trending", request, {}),
      search: (request) => list("search", request, { q: request.q }),
      categories: (audience) =>
        Effect.map(
          ask("categories", audienceParams(audience), KlipyAnswers.CategoriesAnswer),
          (answer): GifSchemas.GifCategories => ({
            categories: answer.data.categories.map((tile) => ({
              name: tile.category,
              query: tile.query,
              preview: tile.preview_url
            }))
          })
        )
    })
  })

export const layer = (options: Options): Layer.Layer<GifProvider.GifProvider, never, HttpClient.HttpClient> =>
  Layer.effect(GifProvider.GifProvider, make(options))

/**
 * `KLIPY_API_KEY` (secret, required), `KLIPY_BASE_URL` (default `https://api.klipy.com/api/v1`),
 * `SERVICE_GIFS_TIMEOUT` (default 3 seconds).
 */
export const layerConfig: Layer.Layer<GifProvider.GifProvider, Config.ConfigError, HttpClient.HttpClient> =
  Layer.unwrap(
    Effect.gen(function* () {
      const apiKey = yield* Config.Redacted("KLIPY_API_KEY").pipe(
        Config.option,
        Config.map(Option.filter((key) => Redacted.value(key).trim() !== ""))
      )
      if (Option.isNone(apiKey)) {
        return yield* Config.fail(
          new ConfigProvider.SourceError({ message: "SERVICE_GIFS_PROVIDER=klipy needs KLIPY_API_KEY" })
        )
      }
      const baseUrl = yield* Config.String("KLIPY_BASE_URL").pipe(
        Config.option,
        Config.map(Option.filter((url) => url.trim() !== ""))
      )
      if (Option.isSome(baseUrl) && !/^https?:\/\/[^\s]+$/.test(baseUrl.value)) {
        return yield* Config.fail(new ConfigProvider.SourceError({ message: "KLIPY_BASE_URL must be an http(s) URL" }))
      }
      const timeout = yield* Config.Duration("SERVICE_GIFS_TIMEOUT").pipe(Config.withDefault(DEFAULT_TIMEOUT))
      return layer({ apiKey: apiKey.value, baseUrl: Option.getOrUndefined(baseUrl), timeout })
    })
  )
