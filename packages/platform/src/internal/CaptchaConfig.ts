/** What every server-side captcha adapter reads from the environment; only the endpoint differs. */
import { Config, type Duration, Effect, Option, type Redacted } from "effect"
import * as ProviderHttp from "./ProviderHttp.ts"

export interface CaptchaOptions {
  readonly secret: Redacted.Redacted<string>
  readonly siteKey: string | undefined
  readonly baseUrl: string
  readonly timeout: Duration.Duration
}

/** `CAPTCHA_SECRET` (required), `CAPTCHA_SITE_KEY`, `<baseUrlVariable>`, `SERVICE_CAPTCHA_TIMEOUT` (5 s). */
export const read = (baseUrlVariable: string, defaultBaseUrl: string) =>
  Effect.gen(function* () {
    const secret = yield* Config.Redacted("CAPTCHA_SECRET")
    const siteKey = yield* Config.option(Config.NonEmptyString("CAPTCHA_SITE_KEY"))
    const baseUrl = yield* Config.String(baseUrlVariable).pipe(Config.withDefault(defaultBaseUrl))
    const timeout = yield* Config.Duration("SERVICE_CAPTCHA_TIMEOUT").pipe(
      Config.withDefault(ProviderHttp.DEFAULT_TIMEOUT)
    )
    return { secret, siteKey: Option.getOrUndefined(siteKey), baseUrl, timeout } satisfies CaptchaOptions
  })
