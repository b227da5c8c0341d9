/**
 * One exchange with a provider's HTTP API, shared by the SMS and captcha adapters: send the request,
 * read the JSON answer and decode it with a Schema, all within a time limit. Every way this can go
 * wrong becomes one `ProviderFailure` whose `reason` is safe to log: it never carries the request URL,
 * headers or body (where the provider's secret travels) nor the provider's raw answer.
 */
import { Data, Duration, Effect, Schema } from "effect"
import type { HttpClient, HttpClientRequest } from "effect/http"

/** A provider could not be asked or did not answer sensibly. */
export class ProviderFailure extends Data.TaggedError("ProviderFailure")<{ readonly reason: string }> {}

/** A decoded answer and the HTTP status it came with (some providers answer refusals with 4xx). */
export interface Answer<A> {
  readonly status: number
  readonly body: A
}

export { withoutTrailingSlashes } from "../Urls.ts"

/** Five seconds: long enough for a slow provider on a bad day, short enough for a person waiting. */
export const DEFAULT_TIMEOUT: Duration.Duration = Duration.seconds(5)

/**
 * Sends `request` and decodes its JSON answer with `schema`, whatever the status. No retries: a
 * repeated send can deliver (and bill) a message twice, and captcha tokens are single use.
 */
export const exchange = <S extends Schema.Constraint>(
  client: HttpClient.HttpClient,
  request: HttpClientRequest.HttpClientRequest,
  schema: S,
  timeout: Duration.Duration
): Effect.Effect<Answer<S["Type"]>, ProviderFailure, S["DecodingServices"]> => {
  const decode = Schema.decodeUnknownEffect(Schema.fromJsonString(schema))
  return client.execute(request).pipe(
    Effect.mapError((error) => new ProviderFailure({ reason: `unreachable (${error.reason._tag})` })),
    Effect.flatMap((response) =>
      response.text.pipe(
        Effect.mapError(() => new ProviderFailure({ reason: `answer unreadable (HTTP ${response.status})` })),
        Effect.flatMap((text) =>
          decode(text).pipe(
            Effect.mapError(() => new ProviderFailure({ reason: `unexpected answer (HTTP ${response.status})` }))
          )
        ),
        Effect.map((body): Answer<S["Type"]> => ({ status: response.status, body }))
      )
    ),
    // The limit covers connecting, the answer's headers and its body: a provider that trickles its
    // answer must not hold the request either. Interruption aborts the underlying HTTP request.
    Effect.timeoutOrElse({
      duration: timeout,
      orElse: () => Effect.fail(new ProviderFailure({ reason: `timed out after ${Duration.format(timeout)}` }))
    })
  )
}
