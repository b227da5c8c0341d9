/**
 * Plain error bodies for code that answers outside HttpApi's error encoding: the router's fallback
 * (unknown route, wrong method), pre-response rewrites of the framework's own empty or text answers
 * (415, 413, defects as 500), the rate-limit middleware. Built from the same catalogue data as the
 * error classes, so both paths answer byte-for-byte the same. Also the schema clients and tests use
 * to decode any error body.
 */
import { Schema } from "effect"
import * as ErrorCatalogue from "./ErrorCatalogue.ts"
import * as FormCode from "./FormCode.ts"
import * as FormErrors from "./FormErrors.ts"
import * as ReasonPhrase from "./internal/ReasonPhrase.ts"
import { RATE_LIMITED_MESSAGE } from "./RateLimited.ts"

/** Any catalogue error body: `{code, message}`, `errors` when there are details, `mfa` on 60003/401. */
export const ErrorBodySchema = Schema.Struct({
  code: Schema.Int,
  message: Schema.String,
  errors: Schema.optionalKey(Schema.Json),
  mfa: Schema.optionalKey(Schema.Literal(true))
}).annotate({ identifier: "ErrorBody" })
export type ErrorBody = typeof ErrorBodySchema.Type

/** The 429 body of the rate limiter. */
export const RateLimitedBodySchema = Schema.Struct({
  message: Schema.String,
  retry_after: Schema.Number,
  global: Schema.Boolean
}).annotate({ identifier: "RateLimitedBody" })
export type RateLimitedBody = typeof RateLimitedBodySchema.Type

/** A status and the JSON body to send with it. */
export interface Answer<Body> {
  readonly status: number
  readonly body: Body
}

/** What a caller may change in a catalogue body. */
export interface Overrides {
  readonly message?: string
  readonly errors?: Schema.Json
}

/** The catalogue entry's status and body: `of("UnknownGuild")` -> `{status: 404, body: {code: 10004, ...}}`. */
export const of = (name: ErrorCatalogue.Name, overrides: Overrides = {}): Answer<ErrorBody> => {
  const entry = ErrorCatalogue.get(name)
  return {
    status: entry.status,
    body: {
      code: entry.code,
      message: overrides.message ?? entry.message,
      ...(overrides.errors === undefined ? {} : { errors: overrides.errors }),
      ...(entry.mfa === undefined ? {} : { mfa: entry.mfa })
    }
  }
}

/** Bare statuses that have their own catalogue entry; 413 is the one with a non-zero code. */
const generalEntries: Readonly<Record<number, ErrorCatalogue.Name>> = {
  404: "NotFound",
  405: "MethodNotAllowed",
  409: "Conflict",
  413: "RequestEntityTooLarge",
  415: "UnsupportedMediaType",
  500: "InternalServerError",
  501: "NotImplemented",
  502: "BadGateway",
  503: "ServiceUnavailable"
}

/**
 * The body for a bare HTTP status, when nothing more specific is known:
 * 404 -> `{code: 0, message: "404: Not Found"}`, 413 -> `{code: 40005, message: "Request entity too large"}`,
 * any other -> `{code: 0, message: "<status>: <reason phrase>"}`.
 */
export const general = (status: number): ErrorBody => {
  const name = generalEntries[status]
  return name === undefined ? { code: 0, message: `${status}: ${ReasonPhrase.of(status)}` } : of(name).body
}

/** The media types the API reads a body in. */
export const ACCEPTED_CONTENT_TYPES: ReadonlyArray<string> = [
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data"
]

/**
 * A body in a media type the route does not read. The mirrored platform answers it as a bad form
 * body (status 400, not 415) with one body-level `CONTENT_TYPE_INVALID` error.
 */
export const unsupportedContentType = (accepted: ReadonlyArray<string> = ACCEPTED_CONTENT_TYPES): ErrorBody =>
  of("InvalidFormBody", {
    errors: FormErrors.root(
      FormCode.ContentTypeInvalid,
      `Expected "Content-Type" header to be one of {${accepted.map((type) => `'${type}'`).join(", ")}}.`
    )
  }).body

/** The rate limiter's 429 answer; `retryAfter` in seconds (fractions kept). */
export const rateLimited = (retryAfter: number, global = false): Answer<RateLimitedBody> => ({
  status: 429,
  body: { message: RATE_LIMITED_MESSAGE, retry_after: retryAfter, global }
})
