/**
 * Constant-connection load, one run at a time: autocannon in this process, or with BENCH_LOAD=wrk
 * the `wrk` binary (Debian's package) for the GET scenarios and those whose connections send
 * requests of their own (login). autocannon is one JavaScript thread and tops out near 100k req/s
 * here, about where the node:http floor answers, so that floor's req/s (not its CPU per request) is
 * the load generator's as much as its own; wrk, written in C, is not. On login autocannon took
 * 224–297 µs of the two cores' CPU a request against 76–82 with wrk (`bench/ab.ts` `AB_LOGIN=1`: the
 * generator and the bench's own process), beside a server the row compares
 * with an argon2id loop that has no HTTP client at all.
 */
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import autocannon from "autocannon"
import * as Pinning from "./Pinning.ts"

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

/** Which load generator drives GET scenarios: `autocannon` (default) or `wrk` (BENCH_LOAD). */
export const GENERATOR: "autocannon" | "wrk" = process.env.BENCH_LOAD === "wrk" ? "wrk" : "autocannon"

/** wrk's `1.23ms` / `850.00us` / `1.02s` as milliseconds. */
const wrkMs = (text: string): number => {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim())
  if (match === null) return Number.NaN
  const value = Number(match[1])
  return match[2] === "us" ? value / 1000 : match[2] === "s" ? value * 1000 : value
}

/** A Lua string literal of `text`'s UTF-8 bytes, every byte but letters and digits as a `\ddd` escape. */
const luaString = (text: string): string =>
  `"${Array.from(Buffer.from(text, "utf8"), (byte) =>
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
      ? String.fromCharCode(byte)
      : `\\${String(byte).padStart(3, "0")}`
  ).join("")}"`

/**
 * A wrk script that sends the connections' variants in turn (wrk's `request()` is asked per request,
 * not per connection): with as many variants as connections and every answer awaited, each variant
 * has about one request in flight, as a connection of its own would.
 */
const variantsScript = (request: Request, perConnection: (index: number) => Variant, connections: number): string => {
  const method = request.method ?? "GET"
  const requests = Array.from({ length: connections }, (_, index) => {
    const variant = perConnection(index)
    const json = variant.json ?? request.json
    const headers = {
      ...(json === undefined ? {} : { "content-type": "application/json" }),
      ...request.headers,
      ...variant.headers
    }
    const headerTable = Object.entries(headers)
      .map(([name, value]) => `[${luaString(name)}] = ${luaString(value)}`)
      .join(", ")
    const body = json === undefined ? "nil" : luaString(JSON.stringify(json))
    return `  { ${luaString(method)}, { ${headerTable} }, ${body} }`
  })
  return [
    "local variants = {",
    requests.join(",\n"),
    "}",
    "local requests = {}",
    "local next = 0",
    "init = function(args)",
    "  for i, v in ipairs(variants) do requests[i] = wrk.format(v[1], nil, v[2], v[3]) end",
    "end",
    "request = function()",
    "  next = next % #requests + 1",
    "  return requests[next]",
    "end",
    ""
  ].join("\n")
}

/**
 * One wrk run: its threads, BENCH_WRK_THREADS, default 1 (the server gets the other core). A GET
 * with fixed headers, or the connections' own variants (`Request.perConnection`) through a script.
 */
const runWrk = (
  url: string,
  options: { readonly connections: number; readonly seconds: number } & Request
): Promise<LoadResult> => {
  const threads = Math.min(Number(process.env.BENCH_WRK_THREADS ?? 1), options.connections)
  const headerArgs = Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`])
  const args = ["-t", String(threads), "-c", String(options.connections), "-d", `${options.seconds}s`, "--latency"]
  let script: string | undefined
  if (options.perConnection !== undefined) {
    script = path.join(mkdtempSync(path.join(tmpdir(), "veche-wrk-")), "variants.lua")
    writeFileSync(script, variantsScript(options, options.perConnection, options.connections))
  }
  const scriptArgs = script === undefined ? headerArgs : ["-s", script]
  const wrk = Pinning.onLoadCpu("wrk", [...args, ...scriptArgs, url])
  return new Promise<LoadResult>((resolve, reject) =>
    execFile(wrk.command, wrk.args, (error, stdout) => {
      if (error !== null)
        return reject(new Error(`wrk failed (BENCH_LOAD=wrk needs Debian's wrk package): ${error.message}`))
      const field = (pattern: RegExp) => pattern.exec(stdout)?.[1]
      // `--latency` prints lines such as `     99%    5.67ms`
      const percentile = (name: string) =>
        stdout
          .split("\n")
          .map((line) => line.trim().split(/ +/))
          .find((words) => words[0] === name)?.[1] ?? ""
      const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout)
      const non2xx = Number(field(/Non-2xx or 3xx responses: (\d+)/) ?? 0)
      resolve({
        rps: Number(field(/Requests\/sec:\s+([\d.]+)/) ?? Number.NaN),
        p50Ms: wrkMs(percentile("50%")),
        p99Ms: wrkMs(percentile("99%")),
        errors: socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0),
        non2xx,
        statuses: non2xx > 0 ? { "non-2xx/3xx": non2xx } : {}
      })
    })
  ).finally(() => {
    if (script !== undefined) rmSync(path.dirname(script), { recursive: true, force: true })
  })
}

export const run = async (
  url: string,
  options: { readonly connections: number; readonly seconds: number } & Request
): Promise<LoadResult> => {
  if (
    GENERATOR === "wrk" &&
    (options.perConnection !== undefined || ((options.method ?? "GET") === "GET" && options.json === undefined))
  ) {
    return runWrk(url, options)
  }
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
