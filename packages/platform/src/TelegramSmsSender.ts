/**
 * `SmsSender` over the Telegram Gateway API (the messenger channel): `POST {base}/sendVerificationMessage`
 * with `Authorization: Bearer <token>` and a JSON body `{phone_number, code, ttl?}`. Telegram renders
 * the code in its own template, so the message's `text` is not sent. It answers `{ok: true, result:
 * RequestStatus}` or `{ok: false, error: "PHONE_NUMBER_INVALID" | "ACCESS_TOKEN_INVALID" | ...}`.
 */
import { Config, Duration, Effect, Layer, Redacted, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import * as ProviderHttp from "./internal/ProviderHttp.ts"
import { type Delivery, SmsRejected, SmsSender, SmsUnavailable, type VerificationMessage } from "./SmsSender.ts"

export const PROVIDER = "telegram"
export const DEFAULT_BASE_URL = "https://gatewayapi.telegram.org"

export interface Options {
  readonly token: Redacted.Redacted<string>
  /** Default `https://gatewayapi.telegram.org`; tests point it at a local fake. */
  readonly baseUrl?: string | undefined
  readonly timeout?: Duration.Duration | undefined
}

const SendVerificationMessage = Schema.Struct({
  phone_number: Schema.String,
  code: Schema.String,
  ttl: Schema.optionalKey(Schema.Number)
})
const encodeBody = HttpClientRequest.schemaBodyJson(SendVerificationMessage)

const Answer = Schema.Struct({
  ok: Schema.Boolean,
  result: Schema.optionalKey(Schema.Struct({ request_id: Schema.String })),
  error: Schema.optionalKey(Schema.String)
})

/** The gateway accepts a `ttl` of 30 to 3600 seconds (and refunds messages not delivered in time). */
const gatewayTtl = (ttl: Duration.Duration): number => Math.min(3600, Math.max(30, Math.round(Duration.toSeconds(ttl))))

/**
 * Errors about the phone (`PHONE_NUMBER_INVALID`, a number without Telegram, ...) say this channel
 * cannot reach it, so another may; the rest (`ACCESS_TOKEN_INVALID`, `BALANCE_NOT_ENOUGH`,
 * `FLOOD_WAIT_*`, ...) say the gateway cannot be used now.
 */
const isAboutRecipient = (error: string): boolean => error.startsWith("PHONE_")

export const make = (options: Options): Effect.Effect<SmsSender["Service"], never, HttpClient.HttpClient> =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const url = `${ProviderHttp.withoutTrailingSlashes(options.baseUrl ?? DEFAULT_BASE_URL)}/sendVerificationMessage`
    const timeout = options.timeout ?? ProviderHttp.DEFAULT_TIMEOUT
    const unavailable = (reason: string) => new SmsUnavailable({ provider: PROVIDER, reason })

    const send = Effect.fn("TelegramSmsSender.send")(function* (message: VerificationMessage) {
      const request = yield* encodeBody(
        HttpClientRequest.post(url).pipe(
          HttpClientRequest.bearerToken(Redacted.value(options.token)),
          HttpClientRequest.acceptJson
        ),
        {
          phone_number: message.to,
          code: message.code,
          ...(message.ttl === undefined ? {} : { ttl: gatewayTtl(message.ttl) })
        }
      ).pipe(Effect.mapError(() => unavailable("request could not be encoded")))
      const answer = yield* ProviderHttp.exchange(client, request, Answer, timeout).pipe(
        Effect.mapError((failure) => unavailable(failure.reason))
      )
      const { ok, result, error } = answer.body
      if (ok && result !== undefined) {
        return { channel: "messenger", provider: PROVIDER, id: result.request_id } satisfies Delivery
      }
      const code = error ?? `HTTP ${answer.status}`
      return yield* isAboutRecipient(code)
        ? new SmsRejected({ provider: PROVIDER, reason: `Telegram Gateway: ${code}` })
        : unavailable(`Telegram Gateway: ${code}`)
    })

    return SmsSender.of({ channel: "messenger", send })
  })

export const layer = (options: Options): Layer.Layer<SmsSender, never, HttpClient.HttpClient> =>
  Layer.effect(SmsSender, make(options))

/**
 * `TELEGRAM_GATEWAY_TOKEN` (secret, required), `TELEGRAM_GATEWAY_BASE_URL` (default
 * `https://gatewayapi.telegram.org`), `SERVICE_SMS_TIMEOUT` (default 5 seconds).
 */
export const layerConfig: Layer.Layer<SmsSender, Config.ConfigError, HttpClient.HttpClient> = Layer.unwrap(
  Effect.gen(function* () {
    const token = yield* Config.Redacted("TELEGRAM_GATEWAY_TOKEN")
    const baseUrl = yield* Config.String("TELEGRAM_GATEWAY_BASE_URL").pipe(Config.withDefault(DEFAULT_BASE_URL))
    const timeout = yield* Config.Duration("SERVICE_SMS_TIMEOUT").pipe(Config.withDefault(ProviderHttp.DEFAULT_TIMEOUT))
    return layer({ token, baseUrl, timeout })
  })
)
