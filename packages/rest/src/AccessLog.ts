/**
 * The access log: one line per answered request. A host gives the edge a `Sink`; the reference
 * server's writes lines to stdout in batches, once per event-loop turn: through the Effect logger,
 * a call and a write per request took a fifth of the server's time on `GET /version`.
 */

/** Takes one answered request. */
export type Sink = (entry: Entry) => void

export interface Entry {
  readonly method: string
  readonly url: string
  readonly status: number
  readonly durationMs: number
  /** The client address (after trusted proxies), or undefined when unknown. */
  readonly address: string | undefined
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n))
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n))

/** `HH:MM:SS.mmm` in UTC. */
const clock = (nowMs: number): string => {
  const date = new Date(nowMs)
  return `${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())}.${pad3(date.getUTCMilliseconds())}`
}

/** The request part of a line: `GET /api/v10/version 200 0.4ms 203.0.113.7`. */
export const describe = (entry: Entry): string =>
  `${entry.method} ${entry.url} ${entry.status} ${entry.durationMs.toFixed(1)}ms ${entry.address ?? "-"}`

/** A whole line as the reference server writes it: `[HH:MM:SS.mmm] INFO access: GET / 200 0.4ms -` (UTC). */
export const line = (entry: Entry, nowMs: number = Date.now()): string =>
  `[${clock(nowMs)}] INFO access: ${describe(entry)}`

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
