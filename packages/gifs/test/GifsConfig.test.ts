/** The GIF settings from the environment: the customer-id key's rules, the provider choice. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit, Layer, Redacted } from "effect"
import { SecureRandom } from "effect/crypto"
import { GifProvider } from "../src/GifProvider.ts"
import * as GifProviderConfig from "../src/GifProviderConfig.ts"
import { GifsConfig } from "../src/GifsConfig.ts"

const read = (env: Record<string, string>) =>
  Effect.exit(
    Layer.build(GifsConfig.layerConfig).pipe(
      Effect.scoped,
      Effect.provide(Layer.merge(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), SecureRandom.layerWebCrypto))
    )
  )

const settings = (env: Record<string, string>) =>
  Effect.service(GifsConfig).pipe(
    Effect.provide(GifsConfig.layerConfig),
    Effect.provide(Layer.merge(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)), SecureRandom.layerWebCrypto))
  )

const KEY = "k".repeat(32)

describe("GifsConfig", () => {
  it.effect("the customer key is required outside dev with KLIPY, and at least 32 characters", () =>
    Effect.gen(function* () {
      expect(Exit.isFailure(yield* read({ SERVICE_ENV: "prod", SERVICE_GIFS_PROVIDER: "klipy" }))).toBe(true)
      expect(Exit.isFailure(yield* read({ SERVICE_GIFS_CUSTOMER_KEY: "short" }))).toBe(true)
      expect(
        Exit.isSuccess(
          yield* read({ SERVICE_ENV: "prod", SERVICE_GIFS_PROVIDER: "klipy", SERVICE_GIFS_CUSTOMER_KEY: KEY })
        )
      ).toBe(true)
      // Without a real provider nothing outside sees the ids: a key per process does.
      expect(Exit.isSuccess(yield* read({ SERVICE_ENV: "prod" }))).toBe(true)
      expect(Exit.isSuccess(yield* read({ SERVICE_ENV: "prod", SERVICE_GIFS_PROVIDER: "none" }))).toBe(true)
    })
  )

  it.effect("reads the lifetimes and the adults' filter", () =>
    Effect.gen(function* () {
      const configured = yield* settings({
        SERVICE_GIFS_CUSTOMER_KEY: KEY,
        SERVICE_GIFS_CACHE_TTL: "30 seconds",
        SERVICE_GIFS_CATEGORIES_CACHE_TTL: "1 hour",
        SERVICE_GIFS_CONTENT_FILTER: "low"
      })
      expect(Redacted.value(configured.customerKey)).toBe(KEY)
      expect(Duration.toMillis(configured.cacheTtl)).toBe(30_000)
      expect(Duration.toMillis(configured.categoriesCacheTtl)).toBe(3_600_000)
      expect(configured.adultContentFilter).toBe("low")
      const defaults = yield* settings({})
      expect(Duration.toMillis(defaults.cacheTtl)).toBe(120_000)
      expect(defaults.adultContentFilter).toBe("medium")
      expect(Exit.isFailure(yield* read({ SERVICE_GIFS_CONTENT_FILTER: "none" }))).toBe(true)
    })
  )

  it.effect("SERVICE_GIFS_PROVIDER: dev by default, none, and klipy only where the host installed it", () =>
    Effect.gen(function* () {
      const pick = (env: Record<string, string>, options: GifProviderConfig.Options = {}) =>
        Effect.exit(
          Effect.map(Effect.service(GifProvider), (provider) => provider.name).pipe(
            Effect.provide(GifProviderConfig.layerConfig(options)),
            Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
          )
        )
      expect(yield* pick({})).toEqual(Exit.succeed("dev"))
      expect(yield* pick({ SERVICE_GIFS_PROVIDER: "none" })).toEqual(Exit.succeed("none"))
      expect(Exit.isFailure(yield* pick({ SERVICE_GIFS_PROVIDER: "klipy" }))).toBe(true)
      expect(Exit.isFailure(yield* pick({ SERVICE_GIFS_PROVIDER: "tenor" }))).toBe(true)
      const unused = () => Effect.die("not called")
      const fake = Layer.succeed(
        GifProvider,
        GifProvider.of({ name: "klipy", trending: unused, search: unused, categories: unused })
      )
      expect(yield* pick({ SERVICE_GIFS_PROVIDER: "klipy" }, { klipy: fake })).toEqual(Exit.succeed("klipy"))
    })
  )
})
