/**
 * `Captcha` over Yandex SmartCaptcha's server-side check: `POST {base}/validate` with a form body
 * `secret`, `token`, `ip`. HTTP 200 answers `{status: "ok", message: "", host}` for a solved challenge
 * and `{status: "failed", message}` otherwise (a token is single use and lives five minutes). Any
 * other HTTP status means the check itself failed: Yandex advises letting the user through then, so
 * this adapter reports `CaptchaUnavailable` and leaves that choice to the caller.
 */
import { type Config, type Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { Captcha, CaptchaInvalid, CaptchaUnavailable, emptyToken, isEmptyToken } from "./Captcha.ts"
import * as CaptchaConfig from "./internal/CaptchaConfig.ts"
import * as ProviderHttp from "./internal/ProviderHttp.ts"

export const PROVIDER = "yandex"
export const DEFAULT_BASE_URL = "https://smartcaptcha.yandexcloud.net"

export interface Options {
  /** The server key of the captcha (`ysc2_…`). */
  readonly secret: Redacted.Redacted<string>
  /** The client key (`ysc1_…`) the widget needs; the API hands it to clients. */
  readonly siteKey?: string | undefined
  /** Default `https://smartcaptcha.yandexcloud.net`; tests point it at a local fake. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.Duration | undefined
}

const Answer = Schema.Struct({
  status: Schema.String,
  message: Schema.optionalKey(Schema.String),
  host: Schema.optionalKey(Schema.String)
})

export const make = (options: Options): Effect.Effect<Captcha["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${ProviderHttp.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)}/validate`
    const timeout = options.timeout ?? ProviderHttp.DEFAULT_TIMEOUT
    const unavailable = (reason: string) => new CaptchaUnavailable({ provider: PROVIDER, reason })

    const verify = Effect.fn("YandexSmartCaptcha.verify")(function* (token: string, remoteAddress?: string) {
      if (isEmptyToken(token)) return yield* emptyToken()
      const request = HttpClientRequest.post(url).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams({
          secret: Redacted.value(options.secret),
          token,
          ...(remoteAddress === undefined ? {} : { ip: remoteAddress })
        })
      )
      const answer = yield* ProviderHttp.exchange(client, request, Answer, timeout).pipe(
        Effect.mapError((failure) => unavailable(failure.reason))
      )
      if (answer.status !== 200) return yield* unavailable(`SmartCaptcha answered HTTP ${answer.status}`)
      if (answer.body.status === "ok") return
      return yield* new CaptchaInvalid({ reason: answer.body.message || `SmartCaptcha: ${answer.body.status}` })
    })

    return Captcha.of({ service: "yandex", siteKey: Option.fromNullishOr(options.siteKey), verify })
  })

export const layer = (options: Options): Layer.Layer<Captcha, never, HttpClient.HttpClient> =>
  Layer.effect(Captcha, make(options))

/**
 * `CAPTCHA_SECRET` (secret, required), `CAPTCHA_SITE_KEY` (optional), `SMARTCAPTCHA_BASE_URL`
 * (default `https://smartcaptcha.yandexcloud.net`), `SERVICE_CAPTCHA_TIMEOUT` (default 5 seconds).
 */
export const layerConfig: Layer.Layer<Captcha, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.map(CaptchaConfig.read("SMARTCAPTCHA_BASE_URL", DEFAULT_BASE_URL), layer)
)
