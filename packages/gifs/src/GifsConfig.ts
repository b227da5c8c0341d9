/**
 * The GIF proxy's settings:
 *
 * - `SERVICE_GIFS_CUSTOMER_KEY` (secret, at least 32 characters): the key under which a user id
 *   becomes the customer id the provider sees (HMAC-SHA256). All nodes must share it; changing it
 *   changes every customer id. Required outside dev with a real provider (`klipy`); otherwise a
 *   key is made per process (nothing outside the server sees the ids then).
 * - `SERVICE_GIFS_CACHE_TTL` (default 2 minutes; 0 turns the cache off): how long a trending or
 *   search page is kept.
 * - `SERVICE_GIFS_CATEGORIES_CACHE_TTL` (default 30 minutes): how long the category tiles are kept.
 * - `SERVICE_GIFS_CONTENT_FILTER` (default `medium`): the provider's content filter for adults;
 *   users under 18, or whose age is unknown (bots), always get `high`.
 */
import { Config, ConfigProvider, Context, Duration, Effect, Layer, Option, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
import { Hex } from "effect/encoding"
import { CONTENT_FILTERS, type ContentFilter } from "./GifProvider.ts"

export interface Settings {
  readonly customerKey: Redacted.Redacted<string>
  readonly cacheTtl: Duration.Duration
  readonly categoriesCacheTtl: Duration.Duration
  readonly adultContentFilter: ContentFilter
}

export const DEFAULT_CACHE_TTL = Duration.minutes(2)
export const DEFAULT_CATEGORIES_CACHE_TTL = Duration.minutes(30)
export const DEFAULT_CONTENT_FILTER: ContentFilter = "medium"
const MIN_KEY_LENGTH = 32

export class GifsConfig extends Context.Service<GifsConfig, Settings>()("@veche/gifs/GifsConfig") {
  static readonly layer = (settings: Pick<Settings, "customerKey"> & Partial<Settings>): Layer.Layer<GifsConfig> =>
    Layer.succeed(
      GifsConfig,
      GifsConfig.of({
        cacheTtl: DEFAULT_CACHE_TTL,
        categoriesCacheTtl: DEFAULT_CATEGORIES_CACHE_TTL,
        adultContentFilter: DEFAULT_CONTENT_FILTER,
        ...settings
      })
    )

  static readonly layerConfig: Layer.Layer<GifsConfig, Config.ConfigError, SecureRandom.SecureRandom> = Layer.unwrap(
    Effect.gen(function* () {
      const configured = yield* Config.Redacted("SERVICE_GIFS_CUSTOMER_KEY").pipe(
        Config.option,
        Config.map(Option.filter((key) => Redacted.value(key).length > 0))
      )
      const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
      const provider = yield* Config.String("SERVICE_GIFS_PROVIDER").pipe(Config.withDefault("dev"))
      let customerKey: Redacted.Redacted<string>
      if (Option.isSome(configured)) {
        if (Redacted.value(configured.value).length < MIN_KEY_LENGTH) {
          return yield* Config.fail(
            new ConfigProvider.SourceError({
              message: `SERVICE_GIFS_CUSTOMER_KEY must be at least ${MIN_KEY_LENGTH} characters`
            })
          )
        }
        customerKey = configured.value
      } else if (env !== "dev" && provider.trim().toLowerCase() === "klipy") {
        return yield* Config.fail(
          new ConfigProvider.SourceError({
            message: "SERVICE_GIFS_CUSTOMER_KEY is required outside dev when SERVICE_GIFS_PROVIDER is klipy"
          })
        )
      } else {
        // Dev, or no real provider to tell: customer ids change at each restart, which only costs
        // the provider's personalisation.
        const bytes = yield* (yield* SecureRandom.SecureRandom).randomBytes(32)
        customerKey = Redacted.make(Hex.encode(bytes))
      }
      const cacheTtl = yield* Config.Duration("SERVICE_GIFS_CACHE_TTL").pipe(Config.withDefault(DEFAULT_CACHE_TTL))
      const categoriesCacheTtl = yield* Config.Duration("SERVICE_GIFS_CATEGORIES_CACHE_TTL").pipe(
        Config.withDefault(DEFAULT_CATEGORIES_CACHE_TTL)
      )
      const adultContentFilter = yield* Config.Literals(CONTENT_FILTERS, "SERVICE_GIFS_CONTENT_FILTER").pipe(
        Config.withDefault(DEFAULT_CONTENT_FILTER)
      )
      return GifsConfig.layer({ customerKey, cacheTtl, categoriesCacheTtl, adultContentFilter })
    })
  )
}
