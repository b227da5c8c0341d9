/**
 * The rate-limit headers' seconds (`X-RateLimit-Reset`, `-Reset-After`) are formatted without
 * `toFixed` on the request path: they must read exactly as `(ms / 1000).toFixed(3)` does.
 */
import { RateLimitHeaders } from "@veche/ratelimit"
import { describe, expect, it } from "vitest"

const asToFixed = (ms: number) => (ms / 1000).toFixed(3)

/** A small deterministic generator (xorshift), so a failure names a value that reproduces. */
const randoms = (seed: number) => {
  let state = seed
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 2 ** 32
  }
}

describe("RateLimitHeaders.seconds", () => {
  it("reads as toFixed(3) at the edges: zero, ties, tiny, huge and odd values", () => {
    const values = [
      0,
      -0,
      0.000001,
      0.4999999,
      0.5,
      0.5000001,
      1,
      999.5,
      1000,
      1000.5,
      1500,
      2500,
      0.0005,
      0.0015,
      1.0005,
      1e-300,
      1e15,
      2 ** 52,
      2 ** 53,
      1e21,
      1e25,
      -1,
      -0.5,
      -1500.25,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.MAX_VALUE,
      Number.MIN_VALUE
    ]
    for (const ms of values) expect(RateLimitHeaders.seconds(ms), String(ms)).toBe(asToFixed(ms))
  })

  it("reads as toFixed(3) for times as the limiter writes them (Unix ms plus a nanosecond-rounded rest)", () => {
    const next = randoms(0x9e3779b9)
    const now = 1_795_702_602_778
    for (let i = 0; i < 200_000; i++) {
      const rest = Math.round(next() * 120_000 * 1e6) / 1e6
      const resetMs = now + Math.floor(next() * 1e9) + rest
      expect(RateLimitHeaders.seconds(rest), String(rest)).toBe(asToFixed(rest))
      expect(RateLimitHeaders.seconds(resetMs), String(resetMs)).toBe(asToFixed(resetMs))
    }
  })

  it("reads as toFixed(3) next to every half-millisecond tie, where rounding is closest", () => {
    const next = randoms(12345)
    for (let i = 0; i < 100_000; i++) {
      const whole = Math.floor(next() * 2 ** 41)
      for (const ms of [whole + 0.5, whole + 0.4999999, whole + 0.5000001, (whole + 0.5) / 1000, whole / 7]) {
        expect(RateLimitHeaders.seconds(ms), String(ms)).toBe(asToFixed(ms))
      }
    }
  })
})

describe("RateLimitHeaders.bucketFor", () => {
  it("answers what `bucket` answers, call after call, its kept texts included", () => {
    const next = randoms(0x2545f491)
    const headers = RateLimitHeaders.bucketFor({ bucketId: "b1", limit: 5 })
    const now = 1_795_702_602_778
    for (let i = 0; i < 20_000; i++) {
      // Runs of one millisecond (the kept texts' hits), jumps, ties and negative remainders.
      const nowMs = now + Math.floor(i / 16) + (i % 97 === 0 ? 0.5 : 0)
      const resetAfterMs = i % 5 === 0 ? 0 : Math.round(next() * 10_000 * 1e6) / 1e6
      const remaining = Math.floor(next() * 8) - 2
      expect(headers(remaining, resetAfterMs, nowMs)).toStrictEqual(
        RateLimitHeaders.bucket({ bucketId: "b1", limit: 5, remaining, resetAfterMs, nowMs })
      )
    }
  })
})
