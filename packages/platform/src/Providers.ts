/**
 * Chooses the provider adapters from the environment, for hosts. Each port has its own variable
 * (`SERVICE_SMS_PROVIDER`, `SERVICE_MAIL_PROVIDER`, `SERVICE_CAPTCHA_PROVIDER`); the defaults are
 * the dev adapters, which need nothing. The chosen adapter then reads its own variables (see its
 * module). Hosts provide an `HttpClient` (e.g. `FetchHttpClient.layer`) and the `DevOutbox` (the dev
 * route reads the same instance the console adapters write).
 *
 * Adapters that need a driver live in their own packages (`@veche/smtp`, `@veche/maxmind`), which this one does not
 * depend on: a host passes the ones it installed as `Drivers`, and choosing one it did not pass is a
 * configuration error at startup.
 */
import { Array as Arr, Config, ConfigProvider, Context, Effect, Layer } from "effect"
import type { HttpClient } from "effect/http"
import { Captcha } from "./Captcha.ts"
import { CarrierCheck } from "./CarrierCheck.ts"
import type * as DevOutbox from "./DevOutbox.ts"
import * as HCaptcha from "./HCaptcha.ts"
import { Mailer } from "./Mailer.ts"
import * as ServiceInfo from "./ServiceInfo.ts"
import * as SmsRuCallCheck from "./SmsRuCallCheck.ts"
import * as SmsRuSmsSender from "./SmsRuSmsSender.ts"
import { SmsSender } from "./SmsSender.ts"
import * as TelegramSmsSender from "./TelegramSmsSender.ts"
import * as YandexSmartCaptcha from "./YandexSmartCaptcha.ts"

export const SMS_PROVIDERS = ["console", "smsru", "telegram"] as const
export type SmsProvider = (typeof SMS_PROVIDERS)[number]
export const MAIL_PROVIDERS = ["console", "smtp"] as const
export const CAPTCHA_PROVIDERS = ["dev", "yandex", "hcaptcha"] as const

/** The driver-backed adapters a host installed; see the module header. */
export interface Drivers {
  /** `SERVICE_MAIL_PROVIDER=smtp`: `SmtpMailer.layerConfig` from `@veche/smtp`. */
  readonly smtp?: Layer.Layer<Mailer, Config.ConfigError> | undefined
}

const notInstalled = (choice: string, adapterPackage: string) =>
  new Config.ConfigError(
    new ConfigProvider.SourceError({
      message: `${choice} needs the ${adapterPackage} adapter, which this host does not install`
    })
  )

const isSmsProvider = (name: string): name is SmsProvider => (SMS_PROVIDERS as ReadonlyArray<string>).includes(name)

/**
 * `SERVICE_SMS_PROVIDER`: one of `console` (default), `smsru`, `telegram`, or several separated by
 * commas, tried in that order until one delivers (e.g. `telegram,smsru`: Telegram first, SMS for
 * numbers without Telegram or while the gateway is down).
 */
export const smsProviders: Config.Config<readonly [SmsProvider, ...Array<SmsProvider>]> = Config.String(
  "SERVICE_SMS_PROVIDER"
).pipe(
  Config.withDefault("console"),
  Config.mapEffect((value) => {
    const names = value
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== "")
    const known = names.filter(isSmsProvider)
    return Arr.isReadonlyArrayNonEmpty(known) && known.length === names.length
      ? Effect.succeed(known)
      : Effect.fail(
          new Config.ConfigError(
            new ConfigProvider.SourceError({
              message: `SERVICE_SMS_PROVIDER must list some of ${SMS_PROVIDERS.join(", ")}; got "${value}"`
            })
          )
        )
  })
)

/** Dev adapters outside dev are allowed (a staging box may want them) but must not go unnoticed. */
const warnOutsideDev = (what: string) =>
  Config.Literals(ServiceInfo.ENVIRONMENTS, "SERVICE_ENV").pipe(
    Config.withDefault("dev" as const),
    Effect.flatMap((env) =>
      env === "dev" ? Effect.void : Effect.logWarning(`${what} is a dev adapter, yet SERVICE_ENV is ${env}`)
    )
  )

const smsLayer = (
  name: SmsProvider
): Layer.Layer<SmsSender, Config.ConfigError, HttpClient.HttpClient | DevOutbox.DevOutbox> => {
  switch (name) {
    case "console":
      return Layer.effectDiscard(warnOutsideDev("SERVICE_SMS_PROVIDER=console")).pipe(
        Layer.provideMerge(SmsSender.layerConsole)
      )
    case "smsru":
      return SmsRuSmsSender.layerConfig
    case "telegram":
      return TelegramSmsSender.layerConfig
  }
}

export const smsSender: Layer.Layer<SmsSender, Config.ConfigError, HttpClient.HttpClient | DevOutbox.DevOutbox> =
  Layer.unwrap(
    Effect.gen(function* () {
      const [first, ...rest] = yield* smsProviders
      if (rest.length === 0) return smsLayer(first)
      const build = (name: SmsProvider) =>
        Layer.build(smsLayer(name)).pipe(Effect.map((context) => Context.get(context, SmsSender)))
      return Layer.effect(
        SmsSender,
        Effect.gen(function* () {
          const head = yield* build(first)
          const tail = yield* Effect.forEach(rest, build)
          return SmsSender.fallback(head, ...tail)
        })
      )
    })
  )

/** `SERVICE_MAIL_PROVIDER`: `console` (default) or `smtp` (the host's `drivers.smtp`). */
export const mailer = (drivers: Drivers = {}): Layer.Layer<Mailer, Config.ConfigError, DevOutbox.DevOutbox> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const provider = yield* Config.Literals(MAIL_PROVIDERS, "SERVICE_MAIL_PROVIDER").pipe(
        Config.withDefault("console" as const)
      )
      if (provider === "smtp") {
        if (drivers.smtp === undefined)
          return yield* Effect.fail(notInstalled("SERVICE_MAIL_PROVIDER=smtp", "@veche/smtp"))
        return drivers.smtp
      }
      yield* warnOutsideDev("SERVICE_MAIL_PROVIDER=console")
      return Mailer.layerConsole
    })
  )

/** `SERVICE_CAPTCHA_PROVIDER`: `dev` (default), `yandex` or `hcaptcha`. */
export const captcha: Layer.Layer<Captcha, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.gen(function* () {
    const provider = yield* Config.Literals(CAPTCHA_PROVIDERS, "SERVICE_CAPTCHA_PROVIDER").pipe(
      Config.withDefault("dev" as const)
    )
    if (provider === "yandex") return YandexSmartCaptcha.layerConfig
    if (provider === "hcaptcha") return HCaptcha.layerConfig
    yield* warnOutsideDev("SERVICE_CAPTCHA_PROVIDER=dev (any non-empty token passes)")
    return Captcha.layerDev
  })
)

/**
 * `SERVICE_CARRIER_CHECK_PROVIDER`: `none` (default: codes by SMS only), `dev` (calls recorded in
 * the dev outbox) or `smsru` (SMS.ru flash call).
 */
export const carrierCheck: Layer.Layer<CarrierCheck, Config.ConfigError, HttpClient.HttpClient | DevOutbox.DevOutbox> =
  Layer.unwrap(
    Effect.gen(function* (): Effect.fn.Return<
      Layer.Layer<CarrierCheck, Config.ConfigError, HttpClient.HttpClient | DevOutbox.DevOutbox>,
      Config.ConfigError
    > {
      const provider = yield* Config.Literals(["none", "dev", "smsru"], "SERVICE_CARRIER_CHECK_PROVIDER").pipe(
        Config.withDefault("none" as const)
      )
      if (provider === "smsru") return SmsRuCallCheck.layerConfig
      if (provider === "none") return CarrierCheck.layerNone
      yield* warnOutsideDev("SERVICE_CARRIER_CHECK_PROVIDER=dev")
      return CarrierCheck.layerDev
    })
  )

/**
 * SMS, mail and captcha, each from its variables. (`GeoIp` has no choice to make: a host provides
 * its adapter, e.g. `MmdbGeoIp.layerConfig` from `@veche/maxmind`.)
 */
export const layerConfig = (
  drivers: Drivers = {}
): Layer.Layer<SmsSender | Mailer | Captcha, Config.ConfigError, HttpClient.HttpClient | DevOutbox.DevOutbox> =>
  Layer.mergeAll(smsSender, mailer(drivers), captcha)
