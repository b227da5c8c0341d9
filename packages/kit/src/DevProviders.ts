/**
 * The providers a single-process development host can take as they are, none of them a driver:
 * SMS and letters to the console and the dev outbox through an in-memory delivery queue store, the
 * dev captcha (any non-empty token), no carrier checks (codes go by SMS), events in this process,
 * route limits and quotas counted in this process, no payment provider, and the dev GIF fixtures with a
 * memory cache. `Veche.layer` itself chooses none of them;
 * a host that wants other ones provides them instead (the reference server chooses by config).
 */
import { PaymentProvider } from "@veche/billing"
import { DispatchSource, IdentifyLimits, PresenceStore } from "@veche/gateway"
import { DevGifProvider, GifCache, type GifProvider } from "@veche/gifs"
import { Captcha, CarrierCheck, DeliveryStore, DevOutbox, EventBus, Mailer, SmsSender } from "@veche/platform"
import { QuotaLimiter, RateLimitStore, RouteBuckets, RouteLimiter } from "@veche/ratelimit"
import { Layer } from "effect"

export const layerDevProviders: Layer.Layer<
  | SmsSender.SmsSender
  | Mailer.Mailer
  | DeliveryStore.DeliveryStore
  | Captcha.Captcha
  | CarrierCheck.CarrierCheck
  | EventBus.EventBus
  | DispatchSource.DispatchSource
  | IdentifyLimits.IdentifyLimits
  | PresenceStore.PresenceStore
  | DevOutbox.DevOutbox
  | QuotaLimiter.QuotaLimiter
  | RouteLimiter.RouteLimiter
  | PaymentProvider.PaymentProvider
  | GifProvider.GifProvider
  | GifCache.GifCache
> = Layer.mergeAll(
  // no payment provider: checkout answers 501, Plus and boosts come from staff grants
  PaymentProvider.PaymentProvider.layerNone,
  SmsSender.SmsSender.layerConsole,
  Mailer.Mailer.layerConsole,
  DeliveryStore.DeliveryStore.layerMemory,
  Captcha.Captcha.layerDev,
  CarrierCheck.CarrierCheck.layerNone,
  // the gateway's fan-out from the bus in this process, identify limits counted and presence kept here
  DispatchSource.DispatchSource.layerMemory.pipe(Layer.provideMerge(EventBus.EventBus.layerMemory)),
  IdentifyLimits.IdentifyLimits.layerMemory(),
  PresenceStore.PresenceStore.layerMemory,
  // quotas in one synchronous step a count (one node, nothing to share); route limits through a store
  QuotaLimiter.QuotaLimiter.layerInProcess(),
  RouteLimiter.RouteLimiter.layer.pipe(
    Layer.provide(RouteBuckets.RouteBuckets.layer()),
    Layer.provide(RateLimitStore.layerMemory)
  ),
  // GIF fixtures (no internet needed), answers cached in this process
  DevGifProvider.layer,
  GifCache.GifCache.layerMemory()
).pipe(Layer.provideMerge(DevOutbox.DevOutbox.layerMemory))
