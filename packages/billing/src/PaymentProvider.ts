/**
 * The port to the payment provider (YooKassa: `@veche/yookassa`). Every call that creates
 * something carries our order id as its idempotence key, so a retry after a timeout never pays
 * twice. `layerNone` is the provider switched off (`SERVICE_BILLING_PROVIDER=none`): checkout
 * answers 501 and entitlements come from staff grants only.
 */
import { Context, Effect, Layer, Option } from "effect"
import { PaymentsNotConnected, type ProviderUnavailable } from "./BillingErrors.ts"

export type PaymentStatus = "pending" | "waiting_for_capture" | "succeeded" | "canceled"

/** The provider's payment as re-read from it (never as a notification claims it). */
export interface ProviderPayment {
  readonly id: string
  readonly status: PaymentStatus
  /** Whole roubles and kopecks as the provider writes them ("199.00"). */
  readonly amountValue: string
  readonly currency: string
  readonly metadata: Readonly<Record<string, string>>
  /** The saved method's token (for renewals), when the user agreed to save it. */
  readonly savedMethodId: string | null
  /** Why it was canceled (`permission_revoked`, `expired_on_confirmation`, …). */
  readonly cancellationReason: string | null
}

export interface Purchase {
  /** Our order id: the idempotence key, and `metadata.order_id`. */
  readonly orderId: string
  readonly userId: string
  readonly planId: string
  readonly amountRub: number
  /** What the receipt and the payment page show (≤ 128 characters). */
  readonly description: string
  /** The receipt customer's phone, digits only ("79001234567"). */
  readonly phone: string
  /** Ask to save the card for renewals (Plus). */
  readonly savePaymentMethod: boolean
}

export interface Started {
  readonly paymentId: string
  readonly confirmationUrl: string
}

export interface Charge extends Omit<Purchase, "savePaymentMethod"> {
  readonly paymentMethodId: string
}

export class PaymentProvider extends Context.Service<
  PaymentProvider,
  {
    /** False when no provider is connected. */
    readonly enabled: boolean
    /** Starts a payment the user confirms on the provider's page. */
    readonly create: (purchase: Purchase) => Effect.Effect<Started, ProviderUnavailable | PaymentsNotConnected>
    /** Charges a saved method without the user (renewal); the outcome comes as with `get`. */
    readonly charge: (charge: Charge) => Effect.Effect<ProviderPayment, ProviderUnavailable | PaymentsNotConnected>
    /** The payment as the provider has it now; none when it does not know the id. */
    readonly get: (
      paymentId: string
    ) => Effect.Effect<Option.Option<ProviderPayment>, ProviderUnavailable | PaymentsNotConnected>
    /**
     * Whether a notification may come from this address (the provider's published ranges). True
     * for every address when the check is off; false for an unknown address when it is on.
     */
    readonly trustsSource: (address: string | null) => boolean
  }
>()("@veche/billing/PaymentProvider") {
  static readonly layerNone: Layer.Layer<PaymentProvider> = Layer.succeed(
    PaymentProvider,
    PaymentProvider.of({
      enabled: false,
      create: () => Effect.fail(new PaymentsNotConnected()),
      charge: () => Effect.fail(new PaymentsNotConnected()),
      // Nothing was ever paid through no provider: every notification is for an unknown payment.
      get: () => Effect.succeed(Option.none()),
      trustsSource: () => true
    })
  )
}
