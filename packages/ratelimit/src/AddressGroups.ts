/**
 * Which counters a client address counts against. An IPv4 address is one subscriber; an IPv6
 * subscriber usually holds a whole /64 (often a /48), so counting per full IPv6 address would hand
 * an attacker unlimited fresh identities. IPv6 addresses count by their /64 (`narrow`) and, with a
 * larger allowance (`NETWORK_FACTOR` times the limit), by their /48 (`network`). An IPv4-mapped
 * IPv6 address (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers) is its IPv4 address.
 * Anything that is not an address (e.g. "unknown") counts as itself.
 *
 * Runs before every request: IPv4 returns at the first check (about 20 ns); IPv6 parsing costs a
 * few microseconds, so recent answers are remembered (a bounded map, emptied when full).
 */

export interface Groups {
  /** The address (IPv4) or its /64 (IPv6): the key of per-address limits. */
  readonly narrow: string
  /** The /48 of an IPv6 address, counted with `NETWORK_FACTOR` times the allowance; none for IPv4. */
  readonly network: string | undefined
}

/** How much more a /48 may do than one /64 (or one IPv4 address) before it is refused. */
export const NETWORK_FACTOR = 8

const HEXTET = /^[0-9a-f]{1,4}$/i
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/

const ipv4Hextets = (text: string): Array<number> | undefined => {
  const match = IPV4.exec(text)
  if (match === null) return undefined
  const bytes = match.slice(1).map(Number)
  if (bytes.some((byte) => byte > 255)) return undefined
  const [a = 0, b = 0, c = 0, d = 0] = bytes
  return [(a << 8) | b, (c << 8) | d]
}

const hextetsOf = (part: string, last: boolean): Array<number> | undefined => {
  if (part === "") return []
  const out: Array<number> = []
  const pieces = part.split(":")
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? ""
    if (last && i === pieces.length - 1 && piece.includes(".")) {
      const v4 = ipv4Hextets(piece)
      if (v4 === undefined) return undefined
      out.push(...v4)
    } else if (HEXTET.test(piece)) out.push(Number.parseInt(piece, 16))
    else return undefined
  }
  return out
}

/** The eight 16-bit groups of an IPv6 address (zone dropped), or undefined when it is not one. */
export const parseIpv6 = (text: string): ReadonlyArray<number> | undefined => {
  const zone = text.indexOf("%")
  const address = zone === -1 ? text : text.slice(0, zone)
  const halves = address.split("::")
  if (halves.length > 2) return undefined
  if (halves.length === 1) {
    const all = hextetsOf(address, true)
    return all !== undefined && all.length === 8 ? all : undefined
  }
  const head = hextetsOf(halves[0] ?? "", false)
  const tail = hextetsOf(halves[1] ?? "", true)
  if (head === undefined || tail === undefined || head.length + tail.length > 7) return undefined
  return [...head, ...Array.from({ length: 8 - head.length - tail.length }, () => 0), ...tail]
}

const prefix = (hextets: ReadonlyArray<number>, count: number, bits: number) =>
  `${hextets
    .slice(0, count)
    .map((h) => h.toString(16))
    .join(":")}::/${bits}`

const groupsOf = (address: string): Groups => {
  const hextets = parseIpv6(address)
  if (hextets === undefined) return { narrow: address, network: undefined }
  const [h0, h1, h2, h3, h4, h5, h6 = 0, h7 = 0] = hextets
  if (h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0 && h5 === 0xffff) {
    return { narrow: `${h6 >> 8}.${h6 & 255}.${h7 >> 8}.${h7 & 255}`, network: undefined }
  }
  return { narrow: prefix(hextets, 4, 64), network: prefix(hextets, 3, 48) }
}

const CACHE_SIZE = 10_000
const cache = new Map<string, Groups>()

export const of = (address: string): Groups => {
  if (!address.includes(":")) return { narrow: address, network: undefined }
  let groups = cache.get(address)
  if (groups === undefined) {
    groups = groupsOf(address)
    if (cache.size >= CACHE_SIZE) cache.clear()
    cache.set(address, groups)
  }
  return groups
}
