/**
 * Client addresses as a country lookup needs them: normalised (IPv4-mapped IPv6 to IPv4, no zone
 * index or brackets) and sorted out when they cannot locate anyone. The special-purpose ranges are
 * IANA's registries (RFC 6890 and successors: private, loopback, link-local, shared, documentation,
 * benchmarking, multicast, reserved), not location data; data sets sometimes give such ranges a
 * country, so they are excluded before any lookup.
 */
import { BlockList, isIP } from "node:net"
import { Option } from "effect"

export interface Address {
  readonly address: string
  readonly family: 4 | 6
}

const IPV4_SPECIAL: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // shared address space (carrier-grade NAT)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, and the limited broadcast address
]

const IPV6_SPECIAL: ReadonlyArray<readonly [string, number]> = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  // (no ::ffff:0:0/96 here: node's BlockList matches every IPv4 address against it; mapped
  // addresses are rewritten to IPv4 by `parse` instead)
  ["64:ff9b::", 96], // NAT64 well-known prefix: the embedded IPv4 is a server's, not the client's
  ["64:ff9b:1::", 48], // NAT64 local use
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo: the address names a relay, not the client
  ["2001:2::", 48], // benchmarking
  ["2001:10::", 28], // deprecated ORCHID
  ["2001:20::", 28], // ORCHIDv2
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 SIDs
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8] // multicast
]

const special = new BlockList()
for (const [network, prefix] of IPV4_SPECIAL) special.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of IPV6_SPECIAL) special.addSubnet(network, prefix, "ipv6")

const MAPPED_DOTTED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i

/** `::ffff:a.b.c.d` or `::ffff:hhhh:hhhh` as the IPv4 address it carries. */
const mappedIpv4 = (text: string): string | undefined => {
  const dotted = MAPPED_DOTTED.exec(text)?.[1]
  if (dotted !== undefined) return dotted
  const hex = MAPPED_HEX.exec(text)
  if (hex?.[1] === undefined || hex[2] === undefined) return undefined
  const high = Number.parseInt(hex[1], 16)
  const low = Number.parseInt(hex[2], 16)
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".")
}

/** A syntactically valid address in canonical family, or none. */
export const parse = (input: string): Option.Option<Address> => {
  let text = input.trim()
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1)
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  const family = isIP(text)
  if (family === 4) return Option.some({ address: text, family: 4 })
  if (family !== 6) return Option.none()
  // Dual-stack Node servers report IPv4 clients as ::ffff:a.b.c.d.
  const mapped = mappedIpv4(text)
  if (mapped !== undefined && isIP(mapped) === 4) return Option.some({ address: mapped, family: 4 })
  return Option.some({ address: text.toLowerCase(), family: 6 })
}

/** True for addresses that are not globally routable and so have no country. */
export const isSpecialPurpose = (address: Address): boolean =>
  special.check(address.address, address.family === 4 ? "ipv4" : "ipv6")

/** A public address a country lookup can use, or none. */
export const routable = (input: string): Option.Option<Address> =>
  Option.filter(parse(input), (address) => !isSpecialPurpose(address))
