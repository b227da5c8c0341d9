/**
 * Billing's PaymentProvider over YooKassa's API v3 (https://yookassa.ru/developers/api), on
 * Effect's HttpClient, no SDK (there is no official one for Node):
 *
 * - HTTP Basic auth: shop id and secret key.
 * - Every POST carries `Idempotence-Key` = our order id, the same on every retry: a repeat with
 *   the same key and body gets the first answer, so a timeout never pays twice.
 * - 500 (YooKassa could not answer within 30 s; the outcome is unknown) and 202 (still
 *   processing) are repeated with the same key, as the official SDKs do: up to `attempts` times,
 *   after `retry_after` ms from the body or 1.8 s. So are network failures and our timeout.
 * - The 54-FZ receipt: the customer's phone, one item with the configured VAT code, payment
 *   subject and mode, and the tax system when set.
 * - Plus asks to save the card (`save_payment_method`); renewals charge it by `payment_method_id`
 *   without the user.
 * - The notification source check against YooKassa's published ranges (on by default).
 *
 * Waits and timeouts run on the wall clock on purpose: a network call takes real time, whatever
 * clock the caller's tests move.
 */
import { BillingErrors, PaymentProvider } from "@veche/billing"
import { Clock, Config, Duration, Effect, Layer, Option, type Redacted, Result, Schema } from "effect"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "effect/http"
import type { IpNetwork } from "effect/net"
import * as NotifySources from "./NotifySources.ts"

export interface Settings {
  readonly shopId: string
  readonly secretKey: Redacted.Redacted
  /** Default `https://api.yookassa.ru/v3`; tests point it at the fake. */
  readonly apiBase: string
  /** Where the payment page sends the user back. */
  readonly returnUrl: string
  /** 54-FZ `vat_code`: 1 no VAT … 11 = 22 % (from 2026), 12 = 22/122. */
  readonly vatCode: number
  readonly paymentSubject: string
  readonly paymentMode: string
  readonly taxSystemCode: number | null
  /** Null: notifications from any address are let through (they are re-read from the API anyway). */
  readonly notifySources: ReadonlyArray<IpNetwork.IpNetwork> | null
  /** One request's wall-clock limit. */
  readonly timeout: Duration.Duration
  /** Tries per call in all (the first and the repeats). */
  readonly attempts: number
  /** The wait before a repeat when the answer names none. */
  readonly retryDelay: Duration.Duration
}

const DEFAULT_SOURCES = Result.getOrThrow(NotifySources.parse(NotifySources.DEFAULT))

export const defaults = {
  apiBase: "https://api.yookassa.ru/v3",
  vatCode: 1,
  paymentSubject: "service",
  paymentMode: "full_payment",
  taxSystemCode: null,
  notifySources: DEFAULT_SOURCES,
  timeout: Duration.seconds(40),
  attempts: 3,
  retryDelay: Duration.millis(1800)
} as const

// --- what YooKassa answers (unknown fields are ignored, as its docs ask)

const Payment = Schema.Struct({
  id: Schema.String,
  status: Schema.Literals(["pending", "waiting_for_capture", "succeeded", "canceled"]),
  amount: Schema.Struct({ value: Schema.String, currency: Schema.String }),
  confirmation: Schema.optionalKey(
    Schema.Struct({ type: Schema.String, confirmation_url: Schema.optionalKey(Schema.String) })
  ),
  metadata: Schema.optionalKey(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))),
  payment_method: Schema.optionalKey(Schema.Struct({ id: Schema.String, saved: Schema.optionalKey(Schema.Boolean) })),
  cancellation_details: Schema.optionalKey(
    Schema.Struct({ party: Schema.optionalKey(Schema.String), reason: Schema.optionalKey(Schema.String) })
  )
})
type Payment = typeof Payment.Type

const Retry = Schema.Struct({ retry_after: Schema.optionalKey(Schema.Number) })
const ErrorBody = Schema.Struct({
  code: Schema.optionalKey(Schema.String),
  description: Schema.optionalKey(Schema.String)
})

const toProviderPayment = (payment: Payment): PaymentProvider.ProviderPayment => {
  const metadata: Record<string, string> = {}
  for (const [key, value] of Object.entries(payment.metadata ?? {})) {
    if (typeof value === "string") metadata[key] = value
  }
  return {
    id: payment.id,
    status: payment.status,
    amountValue: payment.amount.value,
    currency: payment.amount.currency,
    metadata,
    savedMethodId: payment.payment_method?.saved === true ? payment.payment_method.id : null,
    cancellationReason: payment.cancellation_details?.reason ?? null
  }
}

/** What one exchange came to: a body to decode, "not found", or a reason to repeat or give up. */
type Exchange =
  | { readonly _tag: "ok"; readonly body: unknown }
  | { readonly _tag: "not_found" }
  | { readonly _tag: "repeat"; readonly delay: Duration.Duration; readonly reason: string }
  | { readonly _tag: "refused"; readonly reason: string }

const unavailable = (reason: string) => new BillingErrors.ProviderUnavailable({ reason })

export const make = (settings: Settings) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const wallClock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.provideService(effect, Clock.Clock, Clock.Clock.defaultValue())
    // Trailing slashes off (a loop: a regular expression for it backtracks quadratically).
    let end = settings.apiBase.length
    while (end > 0 && settings.apiBase.charAt(end - 1) === "/") end--
    const base = settings.apiBase.slice(0, end)

    const classify = (response: HttpClientResponse.HttpClientResponse): Effect.Effect<Exchange> =>
      Effect.gen(function* () {
        const body = yield* response.json.pipe(Effect.orElseSucceed((): unknown => null))
        if (response.status === 200) return { _tag: "ok", body } as const
        if (response.status === 404) return { _tag: "not_found" } as const
        if (response.status === 202 || response.status >= 500 || response.status === 429) {
          const retryAfter = Option.getOrUndefined(Schema.decodeUnknownOption(Retry)(body))?.retry_after
          const delay =
            retryAfter !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0
              ? Duration.millis(Math.min(retryAfter, 60_000))
              : settings.retryDelay
          return { _tag: "repeat", delay, reason: `HTTP ${response.status}` } as const
        }
        const error = Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(body))
        return {
          _tag: "refused",
          reason: `HTTP ${response.status} ${error?.code ?? ""} ${error?.description ?? ""}`.trim()
        } as const
      })

    /** One call with its repeats; the request (and its idempotence key) is the same every time. */
    const exchange = (request: HttpClientRequest.HttpClientRequest) =>
      wallClock(
        Effect.gen(function* () {
          let last = "no attempt"
          for (let attempt = 1; attempt <= settings.attempts; attempt++) {
            const outcome: Exchange = yield* client.execute(request).pipe(
              Effect.flatMap(classify),
              Effect.timeout(settings.timeout),
              Effect.catch((error) =>
                Effect.succeed<Exchange>({ _tag: "repeat", delay: settings.retryDelay, reason: String(error) })
              ),
              Effect.scoped
            )
            if (outcome._tag !== "repeat") return outcome
            last = outcome.reason
            if (attempt < settings.attempts) yield* Effect.sleep(outcome.delay)
          }
          return yield* Effect.fail(unavailable(`no final answer after ${settings.attempts} tries: ${last}`))
        })
      )

    const authorized = (request: HttpClientRequest.HttpClientRequest) =>
      request.pipe(HttpClientRequest.basicAuth(settings.shopId, settings.secretKey), HttpClientRequest.acceptJson)

    const decodePayment = (body: unknown) =>
      Schema.decodeUnknownEffect(Payment)(body).pipe(
        Effect.mapError(() => unavailable("the answer is not a payment object"))
      )

    const post = Effect.fnUntraced(function* (idempotenceKey: string, body: Record<string, unknown>) {
      const request = authorized(HttpClientRequest.post(`${base}/payments`)).pipe(
        HttpClientRequest.setHeader("Idempotence-Key", idempotenceKey),
        HttpClientRequest.bodyJsonUnsafe(body)
      )
      const outcome = yield* exchange(request)
      if (outcome._tag !== "ok") {
        return yield* Effect.fail(unavailable(outcome._tag === "refused" ? outcome.reason : "payment not found"))
      }
      return yield* decodePayment(outcome.body)
    })

    const amount = (rub: number) => ({ value: `${rub}.00`, currency: "RUB" })

    const receipt = (description: string, rub: number, phone: string) => ({
      customer: { phone },
      items: [
        {
          description: description.slice(0, 128),
          quantity: "1.00",
          amount: amount(rub),
          vat_code: settings.vatCode,
          payment_subject: settings.paymentSubject,
          payment_mode: settings.paymentMode
        }
      ],
      ...(settings.taxSystemCode === null ? {} : { tax_system_code: settings.taxSystemCode })
    })

    const metadata = (purchase: { orderId: string; userId: string; planId: string }) => ({
      order_id: purchase.orderId,
      user_id: purchase.userId,
      plan_id: purchase.planId
    })

    return PaymentProvider.PaymentProvider.of({
      enabled: true,
      create: (purchase) =>
        Effect.gen(function* () {
          const payment = yield* post(purchase.orderId, {
            amount: amount(purchase.amountRub),
            capture: true,
            confirmation: { type: "redirect", return_url: settings.returnUrl },
            description: purchase.description.slice(0, 128),
            metadata: metadata(purchase),
            receipt: receipt(purchase.description, purchase.amountRub, purchase.phone),
            ...(purchase.savePaymentMethod ? { save_payment_method: true } : {})
          })
          const url = payment.confirmation?.confirmation_url
          if (url === undefined) return yield* Effect.fail(unavailable("the payment has no confirmation_url"))
          return { paymentId: payment.id, confirmationUrl: url }
        }).pipe(Effect.withSpan("YooKassa.create")),
      charge: (charge) =>
        Effect.map(
          post(charge.orderId, {
            amount: amount(charge.amountRub),
            capture: true,
            payment_method_id: charge.paymentMethodId,
            description: charge.description.slice(0, 128),
            metadata: metadata(charge),
            receipt: receipt(charge.description, charge.amountRub, charge.phone)
          }),
          toProviderPayment
        ).pipe(Effect.withSpan("YooKassa.charge")),
      get: (paymentId) =>
        Effect.gen(function* () {
          const outcome = yield* exchange(
            authorized(HttpClientRequest.get(`${base}/payments/${encodeURIComponent(paymentId)}`))
          )
          if (outcome._tag === "not_found") return Option.none()
          // A refusal of a GET (400 for a malformed id) means the same to us: no such payment of ours.
          if (outcome._tag === "refused") return Option.none()
          return Option.some(toProviderPayment(yield* decodePayment(outcome.body)))
        }).pipe(Effect.withSpan("YooKassa.get")),
      trustsSource: (address) =>
        settings.notifySources === null
          ? true
          : address !== null && NotifySources.contains(settings.notifySources, address)
    })
  })

export const layer = (settings: Settings): Layer.Layer<PaymentProvider.PaymentProvider, never, HttpClient.HttpClient> =>
  Layer.effect(PaymentProvider.PaymentProvider, make(settings))

/** The settings from the environment (names in the README, "Configuration"). */
export const config: Config.Config<Settings> = Config.all({
  shopId: Config.String("SERVICE_YOOKASSA_SHOP_ID"),
  secretKey: Config.Redacted("SERVICE_YOOKASSA_SECRET_KEY"),
  apiBase: Config.String("SERVICE_YOOKASSA_API_BASE").pipe(Config.withDefault(defaults.apiBase)),
  returnUrl: Config.String("SERVICE_BILLING_RETURN_URL"),
  vatCode: Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 12 }))),
    "SERVICE_BILLING_VAT_CODE"
  ).pipe(Config.withDefault(defaults.vatCode)),
  paymentSubject: Config.String("SERVICE_BILLING_PAYMENT_SUBJECT").pipe(Config.withDefault(defaults.paymentSubject)),
  paymentMode: Config.Literals(["full_payment", "full_prepayment"], "SERVICE_BILLING_PAYMENT_MODE").pipe(
    Config.withDefault(defaults.paymentMode)
  ),
  taxSystemCode: Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 6 }))),
    "SERVICE_BILLING_TAX_SYSTEM_CODE"
  ).pipe(Config.option, Config.map(Option.getOrNull)),
  notifySources: Config.Boolean("SERVICE_YOOKASSA_CHECK_IPS").pipe(
    Config.withDefault(true),
    Config.flatMap((check) =>
      check
        ? Config.schema(NotifySources.NetworkList, "SERVICE_YOOKASSA_NOTIFY_IPS").pipe(
            Config.withDefault(DEFAULT_SOURCES)
          )
        : Config.succeed(null)
    )
  ),
  timeout: Config.Duration("SERVICE_YOOKASSA_TIMEOUT").pipe(Config.withDefault(defaults.timeout)),
  attempts: Config.schema(
    Schema.NumberFromString.pipe(Schema.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 10 }))),
    "SERVICE_YOOKASSA_ATTEMPTS"
  ).pipe(Config.withDefault(defaults.attempts)),
  retryDelay: Config.succeed(defaults.retryDelay)
})
