/**
 * `SmsSender` over SMS.ru, a Russian SMS gateway: `POST {base}/sms/send` with `api_id`, `to` (digits,
 * no plus), `msg` and `json=1`. It answers `{status, status_code, sms: {<phone>: {status, status_code,
 * sms_id | status_text}}, balance}`; `status_code` 100 means accepted. The request goes as a form body,
 * not a query string, so the `api_id` never shows up in a URL (traces and error messages carry URLs).
 */
import { Config, type Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as ProviderHttp from "./internal/ProviderHttp.ts"
import { type Delivery, SmsRejected, SmsSender, SmsUnavailable, type VerificationMessage } from "./SmsSender.ts"

export const PROVIDER = "smsru"
export const DEFAULT_BASE_URL = "https://sms.ru"

export interface Options {
  readonly apiId: Redacted.Redacted<string>
  /** Default `https://sms.ru`; tests point it at a local fake. */
  readonly baseUrl?: string | undefined
  /** A sender name approved in the SMS.ru account; the account's default when absent. */
  readonly from?: string | undefined
  /** SMS.ru's test mode: the request is checked and answered but nothing is sent or billed. */
  readonly test?: boolean | undefined
  readonly timeout?: Duration.Duration | undefined
}

const Status = Schema.Struct({
  status: Schema.String,
  status_code: Schema.Number,
  status_text: Schema.optionalKey(Schema.String)
})
const Answer = Schema.Struct({
  ...Status.fields,
  sms: Schema.optionalKey(
    Schema.Record(Schema.String, Schema.Struct({ ...Status.fields, sms_id: Schema.optionalKey(Schema.String) }))
  )
})

/**
 * Per-number codes that are about this recipient, not about our account or the service: 202 wrong
 * number or no route, 207 no route, 209 in our stop list, 230-233 SMS.ru's per-number limits.
 * Another channel may still reach the phone. Every other code (bad api_id, no balance, 220 service
 * unavailable, 500) means SMS.ru cannot be used now.
 */
const RECIPIENT_CODES: ReadonlySet<number> = new Set([202, 207, 209, 230, 231, 232, 233])

const describe = (status: typeof Status.Type): string =>
  status.status_text === undefined ? `${status.status_code}` : `${status.status_code} ${status.status_text}`

export const make = (options: Options): Effect.Effect<SmsSender["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${ProviderHttp.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)}/sms/send`
    const timeout = options.timeout ?? ProviderHttp.DEFAULT_TIMEOUT
    const unavailable = (reason: string) => new SmsUnavailable({ provider: PROVIDER, reason })

    const send = Effect.fn("SmsRuSmsSender.send")(function* (message: VerificationMessage) {
      const to = message.to.replace(/^\+/, "")
      const request = HttpClientRequest.post(url).pipe(
        HttpClientRequest.acceptJson,
        HttpClientRequest.bodyUrlParams({
          api_id: Redacted.value(options.apiId),
          to,
          msg: message.text,
          json: "1",
          ...(options.from === undefined ? {} : { from: options.from }),
          ...(options.test === true ? { test: "1" } : {})
        })
      )
      const answer = yield* ProviderHttp.exchange(client, request, Answer, timeout).pipe(
        Effect.mapError((failure) => unavailable(failure.reason))
      )
      const body = answer.body
      if (body.status !== "OK") return yield* unavailable(`SMS.ru refused the request: ${describe(body)}`)
      const mine = Option.fromNullishOr(body.sms?.[to])
      if (Option.isNone(mine)) return yield* unavailable("SMS.ru answered without a status for the number")
      const status = mine.value
      if (status.status === "OK") return { channel: "sms", provider: PROVIDER, id: status.sms_id } satisfies Delivery
      return yield* RECIPIENT_CODES.has(status.status_code)
        ? new SmsRejected({ provider: PROVIDER, reason: `SMS.ru: ${describe(status)}` })
        : unavailable(`SMS.ru: ${describe(status)}`)
    })

    return SmsSender.of({ channel: "sms", send })
  })

export const layer = (options: Options): Layer.Layer<SmsSender, never, HttpClient.HttpClient> =>
  Layer.effect(SmsSender, make(options))

/**
 * `SMSRU_API_ID` (secret, required), `SMSRU_BASE_URL` (default `https://sms.ru`), `SMSRU_FROM`
 * (optional sender name), `SMSRU_TEST` (default false), `SERVICE_SMS_TIMEOUT` (default 5 seconds).
 */
export const layerConfig: Layer.Layer<SmsSender, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.gen(function* () {
    const apiId = yield* Config.Redacted("SMSRU_API_ID")
    const baseUrl = yield* Config.String("SMSRU_BASE_URL").pipe(Config.withDefault(DEFAULT_BASE_URL))
    const from = yield* Config.option(Config.NonEmptyString("SMSRU_FROM"))
    const test = yield* Config.Boolean("SMSRU_TEST").pipe(Config.withDefault(false))
    const timeout = yield* Config.Duration("SERVICE_SMS_TIMEOUT").pipe(Config.withDefault(ProviderHttp.DEFAULT_TIMEOUT))
    return layer({ apiId, baseUrl, from: Option.getOrUndefined(from), test, timeout })
  })
)
