/**
 * The mirrored platform's rate-limit headers, as @discordjs/rest reads them: Limit, Remaining,
 * Reset (Unix seconds with decimals), Reset-After (seconds with decimals), Bucket on every
 * rate-limited answer; Retry-After (whole seconds, rounded up) and Scope on a 429; Global only when
 * the global limit was hit (the libraries treat its mere presence as "global").
 */
export type Scope = "user" | "global" | "shared"

/**
 * `(ms / 1000).toFixed(3)`, two of which ran on every rate-limited answer at ≈160 ns each, by
 * integer formatting: toFixed(3) writes the integer n nearest to x·1000 (x = ms / 1000; the larger
 * on a tie) with three decimals. x·1000 in doubles is off by at most half its last bit, so it rounds
 * to n unless its fraction lies that close to one half: those, and values outside [0, 2^52), are
 * left to toFixed itself. Exported for its test, which holds it to toFixed.
 */
export const seconds = (ms: number): string => {
  const n = thousandthsOf(ms)
  return n === undefined ? (ms / 1000).toFixed(3) : thousandthsText(n)
}

/** The integer `seconds` writes with three decimals, or undefined where it leaves `ms` to toFixed. */
const thousandthsOf = (ms: number): number | undefined => {
  const x = ms / 1000
  const scaled = x * 1000
  if (!(scaled >= 0 && scaled < 2 ** 52)) return undefined
  const floor = Math.floor(scaled)
  const fraction = scaled - floor
  if (Math.abs(fraction - 0.5) <= scaled * 2 ** -52) return undefined
  return fraction > 0.5 ? floor + 1 : floor
}

const thousandthsText = (n: number): string => {
  if (n < 1000) return n < 10 ? `0.00${n}` : n < 100 ? `0.0${n}` : `0.${n}`
  const digits = String(n)
  return `${digits.slice(0, -3)}.${digits.slice(-3)}`
}

/**
 * `seconds` that keeps its last text: one caller's Reset (and often Reset-After) reads the same
 * thousandths for every request of a millisecond, and building the text was most of its cost.
 */
export const secondsKeepingLast = (): ((ms: number) => string) => {
  let lastThousandths = -1
  let lastText = ""
  return (ms) => {
    const n = thousandthsOf(ms)
    if (n === undefined) return (ms / 1000).toFixed(3)
    if (n !== lastThousandths) {
      lastThousandths = n
      lastText = thousandthsText(n)
    }
    return lastText
  }
}

/** A bucket's five headers, in the order they go on the wire, from their texts. */
const bucketHeaders = (
  limit: string,
  remaining: number,
  reset: string,
  resetAfter: string,
  bucketId: string
): Record<string, string> => ({
  "x-ratelimit-limit": limit,
  "x-ratelimit-remaining": String(Math.max(0, remaining)),
  "x-ratelimit-reset": reset,
  "x-ratelimit-reset-after": resetAfter,
  "x-ratelimit-bucket": bucketId
})

export const bucket = (options: {
  readonly bucketId: string
  readonly limit: number
  readonly remaining: number
  readonly resetAfterMs: number
  readonly nowMs: number
}): Record<string, string> =>
  bucketHeaders(
    String(options.limit),
    options.remaining,
    seconds(options.nowMs + options.resetAfterMs),
    seconds(options.resetAfterMs),
    options.bucketId
  )

export const exceeded = (options: {
  readonly retryAfterMs: number
  readonly scope: Scope
}): Record<string, string> => ({
  "retry-after": String(Math.max(1, Math.ceil(options.retryAfterMs / 1000))),
  "x-ratelimit-scope": options.scope,
  ...(options.scope === "global" ? { "x-ratelimit-global": "true" } : {})
})

/**
 * `bucket` for one bucket and caller, whose answers are built again and again (`RouteLimiter`'s
 * prepared counts): Limit's text is made once and the times' texts are kept from the last answer.
 */
export const bucketFor = (options: {
  readonly bucketId: string
  readonly limit: number
}): ((remaining: number, resetAfterMs: number, nowMs: number) => Record<string, string>) => {
  const limitText = String(options.limit)
  const bucketId = options.bucketId
  const reset = secondsKeepingLast()
  const resetAfter = secondsKeepingLast()
  return (remaining, resetAfterMs, nowMs) =>
    bucketHeaders(limitText, remaining, reset(nowMs + resetAfterMs), resetAfter(resetAfterMs), bucketId)
}
