/** Constant-connection load from this process (autocannon), one run at a time. */
import autocannon from "autocannon"

export interface LoadResult {
  readonly rps: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly errors: number
  readonly non2xx: number
  /**
   * The server's CPU time per answered request (user + system, from /proc), when its process is
   * known: unlike req/s it hardly moves when other work shares the machine's cores.
   */
  readonly cpuUsPerRequest?: number
  /** Answers per status code, to say what a failing run answered. */
  readonly statuses?: Readonly<Record<string, number>>
}

/** What one connection sends: extra headers, and a JSON body in place of the shared one. */
export interface Variant {
  readonly headers?: Record<string, string>
  readonly json?: unknown
}

/** One request repeated on every connection: a GET by default, or a fixed JSON body. */
export interface Request {
  readonly method?: "GET" | "POST"
  readonly headers?: Record<string, string>
  /** Sent as JSON; the same bytes every time (autocannon cannot vary it per request). */
  readonly json?: unknown
  /**
   * Per connection (numbered from 0 in the order autocannon opens them): headers and body of its
   * own, as N distinct clients would send (another account, another forwarded address).
   */
  readonly perConnection?: (index: number) => Variant
}

export const run = async (
  url: string,
  options: { readonly connections: number; readonly seconds: number } & Request
): Promise<LoadResult> => {
  const json = options.json === undefined ? {} : { body: JSON.stringify(options.json) }
  const headers = {
    ...(options.json === undefined ? {} : { "content-type": "application/json" }),
    ...options.headers
  }
  const perConnection = options.perConnection
  let opened = 0
  const setupClient =
    perConnection === undefined
      ? {}
      : {
          setupClient: (client: autocannon.Client) => {
            const variant = perConnection(opened++)
            const body = variant.json === undefined ? json.body : JSON.stringify(variant.json)
            client.setHeadersAndBody(
              {
                ...headers,
                ...(variant.json === undefined ? {} : { "content-type": "application/json" }),
                ...variant.headers
              },
              body
            )
          }
        }
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? "GET",
    headers,
    ...json,
    ...setupClient
  })
  const statuses: Record<string, number> = {}
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = Number(stat.count ?? 0)
  return {
    rps: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statuses
  }
}

export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}
