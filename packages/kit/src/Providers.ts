/**
 * The ports a host answers with adapters of its choice: what is sent and where (SMS, mail, their
 * queue's store), checks against the outside (captcha, carrier, country), where images live and how
 * they are re-encoded, password hashing, app codes, archives, where counters live, the event bus
 * and presence, the dev outbox, the crypto primitives (Node's or WebCrypto), and the payment provider
 * (`PaymentProvider.layerNone` when payments are off).
 */
import type { PasswordHasher, TotpCodes } from "@veche/auth"
import type { PaymentProvider } from "@veche/billing"
import type { DispatchSource, IdentifyLimits, PresenceStore } from "@veche/gateway"
import type { ImageCodec, MediaStorage } from "@veche/media"
import type {
  Captcha,
  CarrierCheck,
  DeliveryStore,
  DevOutbox,
  EventBus,
  GeoIp,
  Mailer,
  SmsSender
} from "@veche/platform"
import type { ZipWriter } from "@veche/privacy"
import type { QuotaLimiter, RouteLimiter } from "@veche/ratelimit"
import type { Digest, SecureRandom } from "effect/crypto"

export type Providers =
  | SmsSender.SmsSender
  | Mailer.Mailer
  | DeliveryStore.DeliveryStore
  | Captcha.Captcha
  | CarrierCheck.CarrierCheck
  | GeoIp.GeoIp
  | MediaStorage.MediaStorage
  | ImageCodec.ImageCodec
  | PasswordHasher.PasswordHasher
  | TotpCodes.TotpCodes
  | ZipWriter.ZipWriter
  | QuotaLimiter.QuotaLimiter
  | RouteLimiter.RouteLimiter
  | EventBus.EventBus
  | DispatchSource.DispatchSource
  | IdentifyLimits.IdentifyLimits
  | PresenceStore.PresenceStore
  | DevOutbox.DevOutbox
  | SecureRandom.SecureRandom
  | Digest.Digest
  | PaymentProvider.PaymentProvider
