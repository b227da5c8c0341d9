/** Constant-connection load from this process (autocannon), one run at a time. */
import autocannon from "autocannon"

export interface LoadResult {
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
  readonly non2xx: number
}

/** One request repeated on every connection: a GET by default, or a fixed JSON body. */
export interface Request {
  readonly method?: "GET" | "POST"
  readonly headers?: Record<string, string>
  /** Sent as JSON; the same bytes every time (autocannon cannot vary it per request). */
  readonly json?: unknown
}

export const run = async (
  url: string,
  options: { readonly connections: number; readonly seconds: number } & Request
): Promise<LoadResult> => {
  const json = options.json === undefined ? {} : { body: JSON.stringify(options.json) }
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? "GET",
    headers: {
      ...(options.json === undefined ? {} : { "content-type": "application/json" }),
      ...options.headers
    },
    ...json
  })
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx
  }
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
