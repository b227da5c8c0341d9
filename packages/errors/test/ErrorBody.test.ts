/**
 * Plain bodies for answers written outside HttpApi (router fallback, pre-response rewrites, the rate
 * limiter), the 429 error class, and the schema clients decode error bodies with.
 */
import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import * as ApiErrorsModule from "../src/ApiErrors.ts"
import * as ErrorBody from "../src/ErrorBody.ts"
import * as ErrorCatalogue from "../src/ErrorCatalogue.ts"
import { RateLimited } from "../src/RateLimited.ts"

// A plain object, so tests can look classes up by entry name.
const ApiErrors = { ...ApiErrorsModule }

describe("ErrorBody.general", () => {
  it("answers a bare status with the general code-0 body", () => {
    expect(ErrorBody.general(404)).toEqual({ code: 0, message: "404: Not Found" })
    expect(ErrorBody.general(405)).toEqual({ code: 0, message: "405: Method Not Allowed" })
    expect(ErrorBody.general(409)).toEqual({ code: 0, message: "409: Conflict" })
    expect(ErrorBody.general(415)).toEqual({ code: 0, message: "415: Unsupported Media Type" })
    expect(ErrorBody.general(500)).toEqual({ code: 0, message: "500: Internal Server Error" })
    expect(ErrorBody.general(501)).toEqual({ code: 0, message: "501: Not Implemented" })
    expect(ErrorBody.general(502)).toEqual({ code: 0, message: "502: Bad Gateway" })
    expect(ErrorBody.general(503)).toEqual({ code: 0, message: "503: Service Unavailable" })
  })

  it("answers 413 with its catalogue code", () => {
    expect(ErrorBody.general(413)).toEqual({ code: 40005, message: "Request entity too large" })
  })

  it("falls back to the reason phrase, then to the status class", () => {
    expect(ErrorBody.general(400)).toEqual({ code: 0, message: "400: Bad Request" })
    expect(ErrorBody.general(401)).toEqual({ code: 0, message: "401: Unauthorized" })
    expect(ErrorBody.general(429)).toEqual({ code: 0, message: "429: Too Many Requests" })
    expect(ErrorBody.general(504)).toEqual({ code: 0, message: "504: Gateway Timeout" })
    expect(ErrorBody.general(499)).toEqual({ code: 0, message: "499: Client Error" })
    expect(ErrorBody.general(599)).toEqual({ code: 0, message: "599: Server Error" })
  })
})

describe("ErrorBody.of", () => {
  it("gives an entry's status and body, as the error class encodes it", () => {
    for (const name of ErrorCatalogue.names) {
      if (name === "InvalidFormBody" || name === "AutoModBlocked") continue // these require `errors`
      const answer = ErrorBody.of(name)
      const encoded = Schema.encodeUnknownSync(ApiErrors[name])(new ApiErrors[name]())
      expect({ name, ...answer }).toEqual({ name, status: ErrorCatalogue.get(name).status, body: encoded })
    }
  })

  it("writes exact bodies, with overrides", () => {
    expect(ErrorBody.of("UnknownGuild")).toEqual({
      status: 404,
      body: { code: 10004, message: "Unknown Guild" }
    })
    expect(ErrorBody.of("TwoFactorRequired")).toEqual({
      status: 401,
      body: { code: 60003, message: "Two factor is required for this operation", mfa: true }
    })
    expect(ErrorBody.of("Banned", { message: "Blocked for spam until 2026-12-01." })).toEqual({
      status: 403,
      body: { code: 40007, message: "Blocked for spam until 2026-12-01." }
    })
    expect(
      ErrorBody.of("AutoModBlocked", {
        message: "No links",
        errors: { rule_name: "links" }
      })
    ).toEqual({
      status: 400,
      body: {
        code: 200000,
        message: "No links",
        errors: { rule_name: "links" }
      }
    })
  })

  it("answers a body in a media type the API does not read as a bad form body", () => {
    expect(ErrorBody.unsupportedContentType()).toEqual({
      code: 50035,
      message: "Invalid Form Body",
      errors: {
        _errors: [
          {
            code: "CONTENT_TYPE_INVALID",
            message:
              "Expected \"Content-Type\" header to be one of {'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'}."
          }
        ]
      }
    })
    expect(ErrorBody.unsupportedContentType(["application/json"]).errors).toEqual({
      _errors: [
        {
          code: "CONTENT_TYPE_INVALID",
          message: "Expected \"Content-Type\" header to be one of {'application/json'}."
        }
      ]
    })
  })
})

describe("RateLimited", () => {
  it("encodes to {message, retry_after, global} with no code, at 429", () => {
    const encode = Schema.encodeUnknownSync(RateLimited)
    expect(JSON.stringify(encode(new RateLimited({ retry_after: 0.731 })))).toBe(
      '{"message":"You are being rate limited.","retry_after":0.731,"global":false}'
    )
    expect(encode(new RateLimited({ retry_after: 12, global: true }))).toEqual({
      message: "You are being rate limited.",
      retry_after: 12,
      global: true
    })
    expect(RateLimited.ast.annotations?.httpApiStatus).toBe(429)
    expect(new RateLimited({ retry_after: 1 })._tag).toBe("RateLimited")
  })

  it("has a plain twin for the rate-limit middleware", () => {
    expect(ErrorBody.rateLimited(0.5)).toEqual({
      status: 429,
      body: { message: "You are being rate limited.", retry_after: 0.5, global: false }
    })
    expect(ErrorBody.rateLimited(3, true).body).toEqual(
      Schema.encodeUnknownSync(RateLimited)(new RateLimited({ retry_after: 3, global: true }))
    )
  })
})

describe("ErrorBodySchema", () => {
  it("decodes any catalogue body and rejects what is not one", () => {
    const decode = Schema.decodeUnknownSync(ErrorBody.ErrorBodySchema)
    expect(decode({ code: 10004, message: "Unknown Guild" })).toEqual({ code: 10004, message: "Unknown Guild" })
    expect(
      decode({
        code: 50035,
        message: "Invalid Form Body",
        errors: { a: { _errors: [] } }
      })
    ).toEqual({
      code: 50035,
      message: "Invalid Form Body",
      errors: { a: { _errors: [] } }
    })
    expect(decode({ code: 60003, message: "Two factor is required for this operation", mfa: true }).mfa).toBe(true)
    expect(() => decode({ message: "no code" })).toThrow()
    expect(() => decode({ code: 1.5, message: "not an int" })).toThrow()
    const decodeLimited = Schema.decodeUnknownSync(ErrorBody.RateLimitedBodySchema)
    expect(decodeLimited({ message: "You are being rate limited.", retry_after: 1.5, global: false })).toEqual({
      message: "You are being rate limited.",
      retry_after: 1.5,
      global: false
    })
  })
})
