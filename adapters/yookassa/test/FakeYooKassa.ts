/**
 * A local fake of YooKassa's API v3 for tests (no real internet): an HTTP server on 127.0.0.1 that
 * speaks the parts billing uses, with YooKassa's rules —
 *
 * - Basic auth with the shop id and secret key, else 401 `invalid_credentials`;
 * - `POST /v3/payments` needs an `Idempotence-Key`: a repeat with the same key and body answers
 *   the same payment, the same key with another body is 400 `invalid_request`; the body is checked
 *   (amount "N.NN" RUB, a receipt with the customer's phone and one item with vat_code,
 *   payment_subject and payment_mode);
 * - `GET /v3/payments/{id}`, 404 `not_found` for an unknown id;
 * - scripted trouble for the next requests: 500 (nothing created), 202 with `retry_after`, 429,
 *   or a timeout (the payment IS created, the answer comes too late: the retry must reuse the key);
 * - test controls: succeed or cancel a payment, and send a notification (the real object, or one
 *   that claims another status) to our webhook.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import { Context, Effect, Layer, Redacted } from "effect"

export type Trouble = "500" | "202" | "429" | "timeout"

export interface FakePayment {
  id: string
  status: "pending" | "waiting_for_capture" | "succeeded" | "canceled"
  paid: boolean
  amount: { value: string; currency: string }
  description?: string
  metadata: Record<string, string>
  confirmation?: { type: "redirect"; confirmation_url: string; return_url: string }
  payment_method?: { type: "bank_card"; id: string; saved: boolean }
  cancellation_details?: { party: string; reason: string }
  created_at: string
  test: true
  /** Not in YooKassa's object: what the fake was asked, for the tests' checks. */
  readonly request: Record<string, unknown>
}

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly idempotenceKey: string | undefined
  readonly authorized: boolean
  readonly body: unknown
}

export const SHOP_ID = "123456"
export const SECRET_KEY = "test_fake_secret_key"

export interface Fake {
  /** `apiBase` for the adapter: `http://127.0.0.1:<port>/v3`. */
  readonly apiBase: string
  readonly requests: Array<RecordedRequest>
  /** Payments created (one per idempotence key). */
  readonly payments: Map<string, FakePayment>
  /** Trouble for the next requests, in order (each entry used once). */
  readonly trouble: (...next: ReadonlyArray<Trouble>) => void
  /** How autopayments (a saved card's charge) end: default succeeded. */
  readonly autopayOutcome: (outcome: "succeeded" | "canceled" | "pending", reason?: string) => void
  /** Where notifications go (our webhook); answers its HTTP status. */
  readonly webhook: (deliver: (body: string) => Promise<number>) => void
  /** The user paid (a saved card when the payment asked to save it). */
  readonly succeed: (id: string) => FakePayment
  readonly cancel: (id: string, reason?: string) => FakePayment
  /** Sends `payment.<status>` with the payment as it is, or claiming `claim` instead. */
  readonly notify: (id: string, claim?: FakePayment["status"]) => Promise<number>
  /** The most recent payment created. */
  readonly last: () => FakePayment
}

export class FakeYooKassa extends Context.Service<FakeYooKassa, Fake>()("@veche/yookassa/test/FakeYooKassa") {
  /** Started on a free port for the layer's lifetime. `timeoutMs`: how long a "timeout" holds the answer. */
  static readonly layer = (options: { readonly timeoutMs?: number } = {}): Layer.Layer<FakeYooKassa> =>
    Layer.effect(FakeYooKassa, make(options.timeoutMs ?? 1500))
}

const expectedAuth = `Basic ${Buffer.from(`${SHOP_ID}:${SECRET_KEY}`).toString("base64")}`

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

const answer = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

const error = (code: string, description: string, parameter?: string) => ({
  type: "error",
  id: "fake-error",
  code,
  description,
  ...(parameter === undefined ? {} : { parameter })
})

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** What YooKassa checks of a payment request that billing relies on; a message when it is wrong. */
const invalid = (body: Record<string, unknown>): string | null => {
  const amount = body.amount
  if (!isRecord(amount) || typeof amount.value !== "string" || !/^\d{1,9}\.\d{2}$/.test(amount.value)) return "amount"
  if (amount.currency !== "RUB") return "amount.currency"
  const receipt = body.receipt
  if (!isRecord(receipt) || !isRecord(receipt.customer)) return "receipt"
  if (typeof receipt.customer.phone !== "string" || !/^7\d{10}$/.test(receipt.customer.phone))
    return "receipt.customer.phone"
  const items = receipt.items
  if (!Array.isArray(items) || items.length !== 1 || !isRecord(items[0])) return "receipt.items"
  const item = items[0]
  if (
    typeof item.vat_code !== "number" ||
    typeof item.payment_subject !== "string" ||
    typeof item.payment_mode !== "string"
  ) {
    return "receipt.items.vat_code"
  }
  if (body.payment_method_id === undefined && !isRecord(body.confirmation)) return "confirmation"
  return null
}

const make = (timeoutMs: number) =>
  Effect.gen(function* () {
    const requests: Array<RecordedRequest> = []
    const payments = new Map<string, FakePayment>()
    const keys = new Map<string, { body: string; paymentId: string }>()
    const troubles: Array<Trouble> = []
    let autopay: { outcome: "succeeded" | "canceled" | "pending"; reason: string } = {
      outcome: "succeeded",
      reason: "insufficient_funds"
    }
    let deliver: (body: string) => Promise<number> = () => Promise.reject(new Error("no webhook set"))
    let counter = 0
    let lastId = ""
    const held = new Set<NodeJS.Timeout>()

    const create = (body: Record<string, unknown>): FakePayment => {
      counter += 1
      const id = `2f${String(counter).padStart(6, "0")}-000f-5000-9000-${Date.now().toString(16).padStart(12, "0")}`
      const metadata: Record<string, string> = {}
      if (isRecord(body.metadata)) {
        for (const [key, value] of Object.entries(body.metadata)) if (typeof value === "string") metadata[key] = value
      }
      const amount = body.amount as { value: string; currency: string }
      const charge = typeof body.payment_method_id === "string"
      const payment: FakePayment = {
        id,
        status: "pending",
        paid: false,
        amount,
        metadata,
        created_at: new Date().toISOString(),
        test: true,
        request: body,
        ...(typeof body.description === "string" ? { description: body.description } : {}),
        ...(charge
          ? { payment_method: { type: "bank_card", id: body.payment_method_id as string, saved: true } }
          : {
              confirmation: {
                type: "redirect",
                confirmation_url: `https://yoomoney.test/checkout/payments/v2/contract?orderId=${id}`,
                return_url: String((body.confirmation as Record<string, unknown>).return_url)
              }
            })
      }
      if (charge && autopay.outcome === "succeeded") Object.assign(payment, { status: "succeeded", paid: true })
      if (charge && autopay.outcome === "canceled") {
        Object.assign(payment, {
          status: "canceled",
          cancellation_details: { party: "payment_network", reason: autopay.reason }
        })
      }
      payments.set(id, payment)
      lastId = id
      return payment
    }

    const visible = ({ request: _, ...payment }: FakePayment) => payment

    const handle = async (request: IncomingMessage, response: ServerResponse) => {
      const text = await readBody(request)
      const path = (request.url ?? "").split("?")[0] ?? ""
      const authorized = request.headers.authorization === expectedAuth
      const key = request.headers["idempotence-key"]
      let body: unknown = null
      try {
        body = text === "" ? null : JSON.parse(text)
      } catch {
        body = text
      }
      requests.push({
        method: request.method ?? "",
        path,
        idempotenceKey: typeof key === "string" ? key : undefined,
        authorized,
        body
      })
      if (!authorized)
        return answer(response, 401, error("invalid_credentials", "Authentication by given credentials failed"))
      const trouble = troubles.shift()
      if (trouble === "500") return answer(response, 500, error("internal_server_error", "Internal server error"))
      if (trouble === "202") return answer(response, 202, { type: "processing", retry_after: 50 })
      if (trouble === "429") return answer(response, 429, error("too_many_requests", "Too many requests"))

      let status = 404
      let result: unknown = error("not_found", "Incorrect url")
      if (request.method === "POST" && path === "/v3/payments") {
        if (typeof key !== "string" || key === "" || key.length > 64) {
          status = 400
          result = error("invalid_request", "Idempotence key is missing or too long", "Idempotence-Key")
        } else if (!isRecord(body)) {
          status = 400
          result = error("invalid_request", "The body is not JSON")
        } else {
          const seen = keys.get(key)
          if (seen !== undefined) {
            if (seen.body === text) {
              status = 200
              result = visible(payments.get(seen.paymentId) as FakePayment)
            } else {
              status = 400
              result = error("invalid_request", "Idempotence key duplicated", "Idempotence-Key")
            }
          } else {
            const wrong = invalid(body)
            if (wrong !== null) {
              status = 400
              result = error("invalid_request", `Invalid ${wrong}`, wrong)
            } else {
              const payment = create(body)
              keys.set(key, { body: text, paymentId: payment.id })
              status = 200
              result = visible(payment)
            }
          }
        }
      } else if (request.method === "GET" && path.startsWith("/v3/payments/")) {
        const payment = payments.get(decodeURIComponent(path.slice("/v3/payments/".length)))
        if (payment !== undefined) {
          status = 200
          result = visible(payment)
        } else {
          result = error("not_found", "Payment not found")
        }
      }
      if (trouble === "timeout") {
        // The work is done, the answer is late: the client has given up by then.
        const timer = setTimeout(() => {
          held.delete(timer)
          if (!response.writableEnded && !response.destroyed) answer(response, status, result)
        }, timeoutMs)
        held.add(timer)
        return
      }
      answer(response, status, result)
    }

    const server: Server = createServer((request, response) => {
      handle(request, response).catch(() => answer(response, 500, error("internal_server_error", "fake failed")))
    })
    const port = yield* Effect.acquireRelease(
      Effect.callback<number>((resume) => {
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
        })
      }),
      () =>
        Effect.callback<void>((resume) => {
          for (const timer of held) clearTimeout(timer)
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )

    const find = (id: string) => {
      const payment = payments.get(id)
      if (payment === undefined) throw new Error(`fake YooKassa: no payment ${id}`)
      return payment
    }

    return FakeYooKassa.of({
      apiBase: `http://127.0.0.1:${port}/v3`,
      requests,
      payments,
      trouble: (...next) => troubles.push(...next),
      autopayOutcome: (outcome, reason = "insufficient_funds") => {
        autopay = { outcome, reason }
      },
      webhook: (to) => {
        deliver = to
      },
      succeed: (id) => {
        const payment = find(id)
        if (payment.status === "succeeded" || payment.status === "canceled") return payment
        payment.status = "succeeded"
        payment.paid = true
        if (payment.payment_method === undefined) {
          payment.payment_method = {
            type: "bank_card",
            id: `pm-${id}`,
            saved: payment.request.save_payment_method === true
          }
        }
        return payment
      },
      cancel: (id, reason = "expired_on_confirmation") => {
        const payment = find(id)
        if (payment.status === "succeeded" || payment.status === "canceled") return payment
        payment.status = "canceled"
        payment.cancellation_details = { party: "yoo_money", reason }
        return payment
      },
      notify: (id, claim) => {
        const payment = visible(find(id))
        const status = claim ?? payment.status
        return deliver(
          JSON.stringify({ type: "notification", event: `payment.${status}`, object: { ...payment, status } })
        )
      },
      last: () => find(lastId)
    })
  })

/** The adapter's settings pointing at the fake (fast repeats, a short timeout). */
export const settings = (fake: Fake) => ({
  shopId: SHOP_ID,
  secretKey: Redacted.make(SECRET_KEY),
  apiBase: fake.apiBase
})
