/**
 * Where the links in letters point: pages of the web front end, which POST the token back to the
 * API. Built from the configured base URL, never from a request's Host header (a forged Host would
 * otherwise send the secret to someone else's site).
 */

import { Urls } from "@veche/platform"
import { Config, ConfigProvider, Context, Effect, Layer } from "effect"

export class WebLinks extends Context.Service<
  WebLinks,
  {
    readonly confirmEmail: (token: string) => string
    readonly resetPassword: (token: string) => string
    /** The page an OAuth consent without a redirect URI (adding a bot) ends on. */
    readonly oauthAuthorized: () => string
  }
>()("@veche/auth/WebLinks") {
  static readonly layer = (webUrl: string): Layer.Layer<WebLinks> => Layer.succeed(WebLinks, WebLinks.make(webUrl))

  static readonly make = (webUrl: string): WebLinks["Service"] => WebLinks.makeFrom(() => webUrl)

  /**
   * Links on a base read at each link: a server that serves the pages itself learns its own URL only
   * once it listens (`PORT=0` picks the port then), after the services that send letters are built.
   */
  static readonly makeFrom = (webUrl: () => string): WebLinks["Service"] => {
    const page = (path: string) => (token: string) =>
      `${Urls.withoutTrailingSlashes(webUrl())}${path}?token=${encodeURIComponent(token)}`
    return WebLinks.of({
      confirmEmail: page("/verify-email"),
      resetPassword: page("/reset-password"),
      oauthAuthorized: () => `${Urls.withoutTrailingSlashes(webUrl())}/oauth2/authorized`
    })
  }

  /**
   * `SERVICE_WEB_URL`, an http(s) URL; in dev it defaults to `http://localhost:3000`, elsewhere it is
   * required (a letter must not point at a developer's machine).
   */
  static readonly layerConfig: Layer.Layer<WebLinks, Config.ConfigError> = Layer.suspend(() =>
    WebLinks.layerConfigWithDevDefault(() => "http://localhost:3000")
  )

  /**
   * `SERVICE_WEB_URL`, or in dev `devDefault` (read at each link): a server that serves the pages
   * itself points letters at its own URL. Outside dev it is required.
   */
  static readonly layerConfigWithDevDefault = (devDefault: () => string): Layer.Layer<WebLinks, Config.ConfigError> =>
    Layer.effect(
      WebLinks,
      Effect.gen(function* () {
        const env = yield* Config.String("SERVICE_ENV").pipe(Config.withDefault("dev"))
        const configured = yield* Config.String("SERVICE_WEB_URL").pipe(Config.option)
        if (configured._tag === "None") {
          if (env === "dev") return WebLinks.makeFrom(devDefault)
          return yield* Config.fail(
            new ConfigProvider.SourceError({ message: "SERVICE_WEB_URL is required outside dev" })
          )
        }
        const url = configured.value
        if (!/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(url)) {
          return yield* Config.fail(
            new ConfigProvider.SourceError({ message: "SERVICE_WEB_URL must be an http(s) URL without query" })
          )
        }
        return WebLinks.make(url)
      })
    )
}
