/**
 * The port that checks a captcha answer server side: registration, login and recovery starts ask
 * for one after the first attempt from an address. The client renders the widget of `service` with
 * `siteKey` and sends back a token; `verify` asks the provider whether that token is a solved
 * challenge. An empty token is invalid without asking anyone.
 *
 * Adapters: `Captcha.layerDev` here (any non-empty token passes), `YandexSmartCaptcha`, `HCaptcha`.
 * `CaptchaUnavailable` leaves the policy to the caller (refuse, or let the request through).
 */
import { Context, Effect, Layer, Option, Schema } from "effect"

/** Which widget the client must show. */
export const CaptchaService = Schema.Literals(["dev", "yandex", "hcaptcha"])
export type CaptchaService = typeof CaptchaService.Type

/** The provider says the token is not a solved challenge (wrong, expired, already used, empty). */
export class CaptchaInvalid extends Schema.TaggedError<CaptchaInvalid>()("CaptchaInvalid", {
  reason: Schema.String
}) {}

/**
 * The provider could not answer: down, slow past the time limit, an unexpected answer, or our own
 * configuration refused (a wrong secret). `reason` is safe to log.
 */
export class CaptchaUnavailable extends Schema.TaggedError<CaptchaUnavailable>()("CaptchaUnavailable", {
  provider: Schema.String,
  reason: Schema.String
}) {}

export type CaptchaError = CaptchaInvalid | CaptchaUnavailable

/** Every adapter's answer to an empty (or blank) token, given without asking a provider. */
export const isEmptyToken = (token: string): boolean => token.trim() === ""
export const emptyToken = (): CaptchaInvalid => new CaptchaInvalid({ reason: "empty captcha token" })

export class Captcha extends Context.Service<
  Captcha,
  {
    readonly service: CaptchaService
    /** The public site key the client's widget needs, when the provider has one. */
    readonly siteKey: Option.Option<string>
    /** Succeeds when `token` is a solved challenge; `remoteAddress` is the client's IP, if known. */
    readonly verify: (token: string, remoteAddress?: string) => Effect.Effect<void, CaptchaError>
  }
>()("@veche/platform/Captcha") {
  /** Dev adapter: any non-empty token passes (architecture.md §6). */
  static readonly layerDev: Layer.Layer<Captcha> = Layer.succeed(
    Captcha,
    Captcha.of({
      service: "dev",
      siteKey: Option.none(),
      verify: Effect.fn("DevCaptcha.verify")(function* (token: string, _remoteAddress?: string) {
        if (isEmptyToken(token)) return yield* emptyToken()
      })
    })
  )
}
