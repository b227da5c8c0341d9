/**
 * `CarrierCheck` over SMS.ru's flash call: `POST {base}/code/call` with `api_id`, `phone` (digits,
 * no plus), `ip` (the client's, for SMS.ru's own fraud checks; "-1" when unknown) and `json=1`. It
 * answers `{status: "OK", code: "1435", call_id, cost, balance}` — the last 4 digits of the number
 * that rings — or `{status: "ERROR", status_code, status_text}`. Form body, so the `api_id` never
 * shows up in a URL.
 */
import { Config, type Duration, Effect, Layer, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { type Call, CarrierCheck, CarrierRefused, CarrierUnavailable } from "./CarrierCheck.ts"
import * as ProviderHttp from "./internal/ProviderHttp.ts"

export const PROVIDER = "smsru-call"
export const DEFAULT_BASE_URL = "https://sms.ru"

export interface Options {
  readonly apiId: Redacted.Redacted<string>
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.Duration | undefined
}

const Answer = Schema.Struct({
  status: Schema.String,
  status_code: Schema.optionalKey(Schema.Number),
  status_text: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  call_id: Schema.optionalKey(Schema.String)
})

/** Codes about this number (wrong number, no route, stop list, per-number limits): try SMS instead. */
const RECIPIENT_CODES: ReadonlySet<number> = new Set([202, 207, 209, 230, 231, 232, 233])

export const make = (options: Options): Effect.Effect<CarrierCheck["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${ProviderHttp.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)}/code/call`
    const timeout = options.timeout ?? ProviderHttp.DEFAULT_TIMEOUT
    const unavailable = (reason: string) => new CarrierUnavailable({ provider: PROVIDER, reason })

    const call = Effect.fn("SmsRuCallCheck.call")(function* (to: string) {
      const request = HttpClientRequest.post(url).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams({
          api_id: Redacted.value(options.apiId),
          phone: to.replace(/^\+/, ""),
          ip: "-1",
          json: "1"
        })
      )
      const answer = yield* ProviderHttp.exchange(client, request, Answer, timeout).pipe(
        Effect.mapError((failure) => unavailable(failure.reason))
      )
      const body = answer.body
      const status = `${body.status_code ?? "?"}${body.status_text === undefined ? "" : ` ${body.status_text}`}`
      if (body.status !== "OK") {
        return yield* body.status_code !== undefined && RECIPIENT_CODES.has(body.status_code)
          ? new CarrierRefused({ provider: PROVIDER, reason: `SMS.ru: ${status}` })
          : unavailable(`SMS.ru refused the call: ${status}`)
      }
      // A numeric code loses its leading zeros in JSON; a missing one must not become "0000".
      if (body.code === undefined) return yield* unavailable("SMS.ru answered without a code")
      const code = String(body.code).padStart(4, "0")
      if (!/^\d{4}$/.test(code)) return yield* unavailable("SMS.ru answered without a 4-digit code")
      return { code, provider: PROVIDER } satisfies Call
    })

    return CarrierCheck.of({ enabled: true, call })
  })

export const layer = (options: Options): Layer.Layer<CarrierCheck, never, HttpClient.HttpClient> =>
  Layer.effect(CarrierCheck, make(options))

/** `SMSRU_API_ID` (secret, required), `SMSRU_BASE_URL`, `SERVICE_SMS_TIMEOUT` (default 5 seconds). */
export const layerConfig: Layer.Layer<CarrierCheck, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.gen(function* () {
    const apiId = yield* Config.Redacted("SMSRU_API_ID")
    const baseUrl = yield* Config.String("SMSRU_BASE_URL").pipe(Config.withDefault(DEFAULT_BASE_URL))
    const timeout = yield* Config.Duration("SERVICE_SMS_TIMEOUT").pipe(Config.withDefault(ProviderHttp.DEFAULT_TIMEOUT))
    return layer({ apiId, baseUrl, timeout })
  })
)
