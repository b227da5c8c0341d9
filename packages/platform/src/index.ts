/**
 * @veche/platform: building blocks every domain shares (ids, service identity) and the cross-domain
 * provider ports with their adapters: a dev adapter that needs nothing next to each port, and the
 * real ones that need no driver (`<Provider><Port>` modules; those that do live under `adapters/`,
 * e.g. `@veche/smtp`, `@veche/maxmind`). `Providers` picks them from the environment for hosts.
 */
export * as Captcha from "./Captcha.ts"
export * as CarrierCheck from "./CarrierCheck.ts"
export * as CredentialChanges from "./CredentialChanges.ts"
export * as DeliveryJob from "./DeliveryJob.ts"
export * as DeliveryQueue from "./DeliveryQueue.ts"
export * as DeliveryStore from "./DeliveryStore.ts"
export * as DevOutbox from "./DevOutbox.ts"
export * as Dispatch from "./Dispatch.ts"
export * as EventBus from "./EventBus.ts"
export * as GeoIp from "./GeoIp.ts"
export * as HCaptcha from "./HCaptcha.ts"
export * as Mailer from "./Mailer.ts"
export * as MoscowDay from "./MoscowDay.ts"
export * as OpaqueSecrets from "./OpaqueSecrets.ts"
export * as Providers from "./Providers.ts"
export * as SecretBox from "./SecretBox.ts"
export * as ServiceInfo from "./ServiceInfo.ts"
export * as SmsRuCallCheck from "./SmsRuCallCheck.ts"
export * as SmsRuSmsSender from "./SmsRuSmsSender.ts"
export * as SmsSender from "./SmsSender.ts"
export * as Snowflake from "./Snowflake.ts"
export * as Spans from "./Spans.ts"
export * as Tallies from "./Tallies.ts"
export * as TelegramSmsSender from "./TelegramSmsSender.ts"
export * as TokenPrefixes from "./TokenPrefixes.ts"
export * as Urls from "./Urls.ts"
export * as YandexSmartCaptcha from "./YandexSmartCaptcha.ts"
