/**
 * The YooKassa adapter against the local fake of the v3 API: what it sends (Basic auth, the
 * idempotence key, the receipt), how it repeats (500, 202, a lost answer: the same key, one
 * payment), what it gives up on, and the notification source check.
 */
import { describe, expect, layer } from "@effect/vitest"
import { PaymentProvider } from "@veche/billing"
import { Duration, Effect, Exit, Layer, Option, Result } from "effect"
import { FetchHttpClient } from "effect/http"
import * as NotifySources from "../src/NotifySources.ts"
import * as YooKassaPaymentProvider from "../src/YooKassaPaymentProvider.ts"
import { FakeYooKassa, SECRET_KEY, SHOP_ID, settings } from "./FakeYooKassa.ts"

/** The value, or the test fails here. */
const must = <A>(value: A | null | undefined): A => {
  if (value === null || value === undefined) throw new Error("expected a value")
  return value
}

const provider = Layer.unwrap(
  Effect.map(Effect.service(FakeYooKassa), (fake) =>
    YooKassaPaymentProvider.layer({
      ...YooKassaPaymentProvider.defaults,
      ...settings(fake),
      returnUrl: "https://veche.test/billing/return",
      vatCode: 11,
      taxSystemCode: 2,
      timeout: Duration.millis(300),
      retryDelay: Duration.millis(20)
    })
  )
).pipe(Layer.provide(FetchHttpClient.layer))

const purchase = (orderId: string): PaymentProvider.Purchase => ({
  orderId,
  userId: "100000000000000001",
  planId: "plus_1m",
  amountRub: 199,
  description: "Veche Plus, 1 month",
  phone: "79001234567",
  savePaymentMethod: true
})

describe("YooKassaPaymentProvider", () => {
  layer(Layer.provideMerge(provider, FakeYooKassa.layer({ timeoutMs: 600 })), { timeout: "30 seconds" })((it) => {
    it.effect("create: Basic auth, our order id as the idempotence key, the 54-FZ receipt, saving the card", () =>
      Effect.gen(function* () {
        const fake = yield* FakeYooKassa
        const payments = yield* PaymentProvider.PaymentProvider
        const started = yield* payments.create(purchase("order-create-1"))
        expect(started.confirmationUrl).toContain(started.paymentId)
        const sent = must(fake.requests.at(-1))
        expect(sent).toMatchObject({
          method: "POST",
          path: "/v3/payments",
          idempotenceKey: "order-create-1",
          authorized: true
        })
        expect(sent.body).toEqual({
          amount: { value: "199.00", currency: "RUB" },
          capture: true,
          confirmation: { type: "redirect", return_url: "https://veche.test/billing/return" },
          description: "Veche Plus, 1 month",
          metadata: { order_id: "order-create-1", user_id: "100000000000000001", plan_id: "plus_1m" },
          receipt: {
            customer: { phone: "79001234567" },
            items: [
              {
                description: "Veche Plus, 1 month",
                quantity: "1.00",
                amount: { value: "199.00", currency: "RUB" },
                vat_code: 11,
                payment_subject: "service",
                payment_mode: "full_payment"
              }
            ],
            tax_system_code: 2
          },
          save_payment_method: true
        })
        expect(SHOP_ID).not.toBe(SECRET_KEY)
      })
    )

    it.effect("500 and 202 are repeated with the same key; a lost answer is repeated and pays once", () =>
      Effect.gen(function* () {
        const fake = yield* FakeYooKassa
        const payments = yield* PaymentProvider.PaymentProvider
        const before = fake.requests.length
        fake.trouble("500", "202")
        const first = yield* payments.create(purchase("order-retry-1"))
        const tries = fake.requests.slice(before)
        expect(tries.map((r) => r.idempotenceKey)).toEqual(["order-retry-1", "order-retry-1", "order-retry-1"])
        expect(Option.map(yield* payments.get(first.paymentId), (p) => p.status)).toEqual(Option.some("pending"))

        const created = fake.payments.size
        const mark = fake.requests.length
        fake.trouble("timeout")
        const second = yield* payments.create(purchase("order-timeout-1"))
        expect(fake.requests.slice(mark).map((r) => r.idempotenceKey)).toEqual(["order-timeout-1", "order-timeout-1"])
        // one payment for the two tries
        expect(fake.payments.size).toBe(created + 1)
        expect(fake.last().id).toBe(second.paymentId)
      })
    )

    it.effect("gives up after the tries, and on a refusal; an unknown payment is none", () =>
      Effect.gen(function* () {
        const fake = yield* FakeYooKassa
        const payments = yield* PaymentProvider.PaymentProvider
        fake.trouble("500", "500", "500")
        const exhausted = yield* Effect.exit(payments.create(purchase("order-down-1")))
        expect(Exit.isFailure(exhausted)).toBe(true)
        const refused = yield* Effect.exit(payments.create({ ...purchase("order-bad-1"), phone: "12" }))
        expect(refused).toMatchObject({ _tag: "Failure" })
        expect(String(Exit.isFailure(refused) ? refused.cause : "")).toContain("ProviderUnavailable")
        expect(yield* payments.get("no-such-payment")).toEqual(Option.none())
      })
    )

    it.effect("a saved card is charged without the user; the outcome is read as the provider tells it", () =>
      Effect.gen(function* () {
        const fake = yield* FakeYooKassa
        const payments = yield* PaymentProvider.PaymentProvider
        const started = yield* payments.create(purchase("order-first-9"))
        fake.succeed(started.paymentId)
        const paid = Option.getOrThrow(yield* payments.get(started.paymentId))
        expect(paid).toMatchObject({
          status: "succeeded",
          amountValue: "199.00",
          currency: "RUB",
          savedMethodId: `pm-${started.paymentId}`
        })
        fake.autopayOutcome("canceled", "permission_revoked")
        const charged = yield* payments.charge({ ...purchase("renew-9"), paymentMethodId: must(paid.savedMethodId) })
        expect(charged).toMatchObject({ status: "canceled", cancellationReason: "permission_revoked" })
        expect((must(fake.requests.at(-1)).body as Record<string, unknown>).payment_method_id).toBe(paid.savedMethodId)
        fake.autopayOutcome("succeeded")
      })
    )

    it.effect("notification sources: YooKassa's published ranges only (IPv4, mapped IPv4, IPv6)", () =>
      Effect.gen(function* () {
        const payments = yield* PaymentProvider.PaymentProvider
        expect(payments.trustsSource("185.71.76.5")).toBe(true)
        expect(payments.trustsSource("::ffff:77.75.156.11")).toBe(true)
        expect(payments.trustsSource("2a02:5180:0:1509::12")).toBe(true)
        expect(payments.trustsSource("8.8.8.8")).toBe(false)
        expect(payments.trustsSource(null)).toBe(false)
        expect(payments.trustsSource("not an address")).toBe(false)
        expect(Result.isFailure(NotifySources.parse("1.2.3.4/99"))).toBe(true)
      })
    )
  })
})
