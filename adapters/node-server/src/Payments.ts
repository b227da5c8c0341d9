/**
 * The payment provider by `SERVICE_BILLING_PROVIDER`: `none` (default; checkout answers 501, staff
 * grant Plus and boosts by hand) or `yookassa` (`@veche/yookassa`, its settings from
 * `SERVICE_YOOKASSA_*` and `SERVICE_BILLING_*`, see the README).
 */
import { PaymentProvider } from "@veche/billing"
import { YooKassaPaymentProvider } from "@veche/yookassa"
import { Config, Effect, Layer } from "effect"
import type { HttpClient } from "effect/http"

export const layer: Layer.Layer<PaymentProvider.PaymentProvider, Config.ConfigError, HttpClient.HttpClient> =
  Layer.unwrap(
    Effect.gen(function* () {
      const provider = yield* Config.Literals(["none", "yookassa"], "SERVICE_BILLING_PROVIDER").pipe(
        Config.withDefault("none" as const)
      )
      if (provider === "none") return PaymentProvider.PaymentProvider.layerNone
      return YooKassaPaymentProvider.layer(yield* YooKassaPaymentProvider.config)
    })
  )
