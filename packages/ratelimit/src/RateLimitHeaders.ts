/**
 * The mirrored platform's rate-limit headers, as @discordjs/rest reads them: Limit, Remaining,
 * Reset (Unix seconds with decimals), Reset-After (seconds with decimals), Bucket on every
 * rate-limited answer; Retry-After (whole seconds, rounded up) and Scope on a 429; Global only when
 * the global limit was hit (the libraries treat its mere presence as "global").
 */
export type Scope = "user" | "global" | "shared"

const seconds = (ms: number) => (ms / 1000).toFixed(3)

export const bucket = (options: {
  readonly bucketId: string
  readonly limit: number
  readonly remaining: number
  readonly resetAfterMs: number
  readonly nowMs: number
}): Record<string, string> => ({
  "x-ratelimit-limit": String(options.limit),
  "x-ratelimit-remaining": String(Math.max(0, options.remaining)),
  "x-ratelimit-reset": seconds(options.nowMs + options.resetAfterMs),
  "x-ratelimit-reset-after": seconds(options.resetAfterMs),
  "x-ratelimit-bucket": options.bucketId
})

export const exceeded = (options: {
  readonly retryAfterMs: number
  readonly scope: Scope
}): Record<string, string> => ({
  "retry-after": String(Math.max(1, Math.ceil(options.retryAfterMs / 1000))),
  "x-ratelimit-scope": options.scope,
  ...(options.scope === "global" ? { "x-ratelimit-global": "true" } : {})
})
