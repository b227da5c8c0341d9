/**
 * Where the pages send their requests: the API's base URL as the browser sees it. By default the
 * API of the same origin (`/api/v10`), as when the reference server serves both.
 */

import { Config, ConfigProvider, Context, Effect, Layer } from "effect"

export const DEFAULT_API_BASE = "/api/v10"

export class WebPagesConfig extends Context.Service<
  WebPagesConfig,
  {
    /** A path on the same origin (`/api/v10`) or an http(s) URL of another origin, without a trailing slash. */
    readonly apiBase: string
    /** The API's origin when it is another one (the pages' Content-Security-Policy lets them call it). */
    readonly apiOrigin: string | undefined
    /**
     * The API's captcha provider (`SERVICE_CAPTCHA_PROVIDER`). The consent page signs in; with the
     * `dev` provider (any token passes) it sends a token, with a real one it has no widget to show
     * and relies on the first attempt from an address being free.
     */
    readonly captcha: string
  }
>()("@veche/web/WebPagesConfig") {
  static readonly make = (apiBase: string = DEFAULT_API_BASE, captcha = "dev"): WebPagesConfig["Service"] => {
    let base = apiBase
    while (base.endsWith("/")) base = base.slice(0, -1)
    const origin = /^https?:\/\//.test(base) ? new URL(base).origin : undefined
    return WebPagesConfig.of({ apiBase: base, apiOrigin: origin, captcha })
  }

  static readonly layer = (apiBase?: string, captcha?: string): Layer.Layer<WebPagesConfig> =>
    Layer.succeed(WebPagesConfig, WebPagesConfig.make(apiBase, captcha))

  /**
   * `SERVICE_WEB_API_URL`: a same-origin path or an http(s) URL; default `/api/v10`.
   * `SERVICE_CAPTCHA_PROVIDER` as the API reads it (default `dev`; the platform checks its values).
   */
  static readonly layerConfig: Layer.Layer<WebPagesConfig, Config.ConfigError> = Layer.effect(
    WebPagesConfig,
    Effect.gen(function* () {
      const url = yield* Config.String("SERVICE_WEB_API_URL").pipe(Config.withDefault(DEFAULT_API_BASE))
      if (!/^(\/[^?#\s"<>]*|https?:\/\/[^/?#\s"<>]+(\/[^?#\s"<>]*)?)$/.test(url)) {
        return yield* Config.fail(
          new ConfigProvider.SourceError({
            message: "SERVICE_WEB_API_URL must be a path (/api/v10) or an http(s) URL without query"
          })
        )
      }
      const captcha = yield* Config.String("SERVICE_CAPTCHA_PROVIDER").pipe(Config.withDefault("dev"))
      return WebPagesConfig.make(url, captcha)
    })
  )
}
