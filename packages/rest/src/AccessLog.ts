/**
 * The access log: one line per answered request. A host gives the edge a `Sink`; the reference
 * server's writes lines to stdout in batches, once per event-loop turn: through the Effect logger,
 * a call and a write per request took a fifth of the server's time on `GET /version`.
 */

/** Takes one answered request. */
export type Sink = (entry: Entry) => void

export interface Entry {
  readonly method: string
  /** The path and query, query values redacted (`redactQuery`). */
  readonly url: string
  readonly status: number
  readonly durationMs: number
  /** The client address (after trusted proxies), or undefined when unknown. */
  readonly address: string | undefined
  /** The request's id, as the Error line of a defect names it. */
  readonly requestId: string
}

/**
 * Query parameters whose values are safe to write down: paging, flags and the code-check purpose.
 * Every other value is replaced, because some carry secrets (the data export's `?token=`, and
 * whatever a future route or a confused client puts there) and some personal data (`?to=` phone).
 */
const SAFE_QUERY_NAMES: ReadonlySet<string> = new Set([
  "after",
  "around",
  "before",
  "limit",
  "purpose",
  "size",
  "with_counts",
  "with_expiration"
])

export const REDACTED = "[redacted]"

// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping exactly these
const CONTROL = /[\u0000-\u001f\u007f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: escaping exactly these
const CONTROL_ALL = /[\u0000-\u001f\u007f]/g

const NAME = /^[A-Za-z0-9_.-]{1,64}$/

const redactPair = (pair: string): string => {
  const equalsAt = pair.indexOf("=")
  const name = equalsAt === -1 ? pair : pair.slice(0, equalsAt)
  if (SAFE_QUERY_NAMES.has(name)) return pair
  // a bare `?value` or an odd name may be the secret itself
  return equalsAt === -1 || !NAME.test(name) ? REDACTED : `${name}=${REDACTED}`
}

/**
 * `/exports/1?token=abc&limit=5` → `/exports/1?token=[redacted]&limit=5`: values are kept only for
 * known-safe names. Control characters are escaped so a line stays one line.
 */
export const redactQuery = (url: string): string => {
  const queryAt = url.indexOf("?")
  const redacted =
    queryAt === -1
      ? url
      : `${url.slice(0, queryAt)}?${url
          .slice(queryAt + 1)
          .split("&")
          .map(redactPair)
          .join("&")}`
  return CONTROL.test(redacted) ? redacted.replace(CONTROL_ALL, (c) => encodeURIComponent(c)) : redacted
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n))

/** `HH:MM:SS.mmm` in UTC. */
const clock = (nowMs: number): string => {
  const date = new Date(nowMs)
  return `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${pad3(date.getUTCMilliseconds())}`
}

/**
 * `durationMs.toFixed(1)`, which costs ≈140 ns, without it for the durations most answers take: every
 * double below 0.05 is below 0.05 exactly (the double nearest 0.05 is above it), so it reads "0.0".
 */
const millis = (durationMs: number): string => (durationMs >= 0 && durationMs < 0.05 ? "0.0" : durationMs.toFixed(1))

/** The request part of a line: `GET /api/v10/version 200 0.4ms 203.0.113.7 req=5f3a9c1e-2s`. */
export const describe = (entry: Entry): string =>
  `${entry.method} ${entry.url} ${entry.status} ${millis(entry.durationMs)}ms ${entry.address ?? "-"} req=${entry.requestId}`

// Under load many lines share a millisecond: its prefix is formatted once.
let prefixMs = Number.NaN
let prefix = ""
const prefixAt = (nowMs: number): string => {
  if (nowMs !== prefixMs) {
    prefixMs = nowMs
    prefix = `[${clock(nowMs)}] INFO access: `
  }
  return prefix
}

/** A whole line as the reference server writes it: `[HH:MM:SS.mmm] INFO access: GET / 200 0.4ms -` (UTC). */
export const line = (entry: Entry, nowMs: number = Date.now()): string => prefixAt(nowMs) + describe(entry)

/**
 * Lines (`line`) gathered and handed to `write` together once per event-loop turn (one system
 * call for many requests under load). Lines still waiting when the process exits are written then.
 */
export const batched = (write: (chunk: string) => void): Sink => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const chunk = `${pending.join("\n")}\n`
    pending = []
    write(chunk)
  }
  process.once("exit", flush)
  return (entry) => {
    if (pending.length === 0) setImmediate(flush)
    pending.push(line(entry))
  }
}
