/**
 * `Captcha` over hCaptcha's server-side check: `POST {base}/siteverify` with a form body `secret`,
 * `response` (the token), `remoteip` and, when configured, `sitekey` (so a token solved for another
 * site is refused). It answers `{success, challenge_ts, hostname, "error-codes"}`.
 */
import { type Config, type Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { Captcha, CaptchaInvalid, CaptchaUnavailable, emptyToken, isEmptyToken } from "./Captcha.ts"
import * as CaptchaConfig from "./internal/CaptchaConfig.ts"
import * as ProviderHttp from "./internal/ProviderHttp.ts"

export const PROVIDER = "hcaptcha"
export const DEFAULT_BASE_URL = "https://api.hcaptcha.com"

export interface Options {
  /** The account's secret key (`0x…`). */
  readonly secret: Redacted.Redacted<string>
  /** The site key the widget uses; sent along so hCaptcha checks the token was solved for it. */
  readonly siteKey?: string | undefined
  /** Default `https://api.hcaptcha.com`; tests point it at a local fake. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.Duration | undefined
}

const Answer = Schema.Struct({
  success: Schema.Boolean,
  "error-codes": Schema.optionalKey(Schema.Array(Schema.String))
})

/**
 * Codes that blame our request, not the user's token: a missing or wrong secret, a site key that
 * does not match it, a malformed request or client address. The user cannot fix these by solving
 * another challenge, so they are `CaptchaUnavailable`.
 */
const OUR_FAULT: ReadonlySet<string> = new Set([
  "missing-input-secret",
  "invalid-input-secret",
  "sitekey-secret-mismatch",
  "bad-request",
  "missing-remoteip",
  "invalid-remoteip"
])

export const make = (options: Options): Effect.Effect<Captcha["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${ProviderHttp.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)}/siteverify`
    const timeout = options.timeout ?? ProviderHttp.DEFAULT_TIMEOUT
    const unavailable = (reason: string) => new CaptchaUnavailable({ provider: PROVIDER, reason })

    const verify = Effect.fn("HCaptcha.verify")(function* (token: string, remoteAddress?: string) {
      if (isEmptyToken(token)) return yield* emptyToken()
      const request = HttpClientRequest.post(url).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams({
          secret: Redacted.value(options.secret),
          response: token,
          ...(remoteAddress === undefined ? {} : { remoteip: remoteAddress }),
          ...(options.siteKey === undefined ? {} : { sitekey: options.siteKey })
        })
      )
      const answer = yield* ProviderHttp.exchange(client, request, Answer, timeout).pipe(
        Effect.mapError((failure) => unavailable(failure.reason))
      )
      if (answer.status >= 500) return yield* unavailable(`hCaptcha answered HTTP ${answer.status}`)
      if (answer.body.success) return
      const codes = answer.body["error-codes"] ?? []
      const reason = codes.length === 0 ? "hCaptcha: not solved" : `hCaptcha: ${codes.join(", ")}`
      return yield* codes.some((code) => OUR_FAULT.has(code)) ? unavailable(reason) : new CaptchaInvalid({ reason })
    })

    return Captcha.of({ service: "hcaptcha", siteKey: Option.fromNullishOr(options.siteKey), verify })
  })

export const layer = (options: Options): Layer.Layer<Captcha, never, HttpClient.HttpClient> =>
  Layer.effect(Captcha, make(options))

/**
 * `CAPTCHA_SECRET` (secret, required), `CAPTCHA_SITE_KEY` (optional), `HCAPTCHA_BASE_URL`
 * (default `https://api.hcaptcha.com`), `SERVICE_CAPTCHA_TIMEOUT` (default 5 seconds).
 */
export const layerConfig: Layer.Layer<Captcha, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.map(CaptchaConfig.read("HCAPTCHA_BASE_URL", DEFAULT_BASE_URL), layer)
)
