/**
 * Where YooKassa sends notifications from. They carry no signature, so the address is the only
 * authenticity check (the payment is re-read from the API anyway, so a forged notification can at
 * most make us ask). The default list is the official Python SDK's `SecurityHelper`, with the
 * documented IPv6 /32 in place of its four /64s.
 */
import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { IpNetwork, NetAddress } from "effect/net"

export const DEFAULT =
  "185.71.76.0/27,185.71.77.0/27,77.75.153.0/25,77.75.156.11/32,77.75.156.35/32,77.75.154.128/25,2a02:5180::/32"

/** Parses a comma-separated list of addresses and CIDRs; the first bad entry is the error. */
export const parse = (text: string): Result.Result<ReadonlyArray<IpNetwork.IpNetwork>, string> => {
  const networks: Array<IpNetwork.IpNetwork> = []
  for (const part of text.split(",").map((s) => s.trim())) {
    if (part === "") continue
    const parsed = IpNetwork.fromString(part.includes("/") ? part : `${part}/${part.includes(":") ? 128 : 32}`)
    if (Result.isFailure(parsed)) return Result.fail(`not an address or CIDR: ${part}`)
    networks.push(parsed.success)
  }
  return Result.succeed(networks)
}

/** Whether the address is in one of the networks (an IPv4-mapped IPv6 address counts as IPv4). */
export const contains = (networks: ReadonlyArray<IpNetwork.IpNetwork>, address: string): boolean => {
  const plain = address.toLowerCase().startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address
  const parsed = NetAddress.ipFromString(plain)
  if (Result.isFailure(parsed)) return false
  return networks.some((network) => IpNetwork.contains(network, parsed.success))
}

/** The list as a Schema from its text (for `SERVICE_YOOKASSA_NOTIFY_IPS`). */
export const NetworkList = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.declare(IpNetwork.isIpNetwork)),
    SchemaTransformation.transformEffect({
      decode: (text: string): Effect.Effect<ReadonlyArray<IpNetwork.IpNetwork>, SchemaIssue.Issue> => {
        const parsed = parse(text)
        return Result.isFailure(parsed)
          ? Effect.fail(new SchemaIssue.InvalidValue({ message: parsed.failure }, text))
          : Effect.succeed(parsed.success)
      },
      encode: (networks) => Effect.succeed(networks.map(String).join(","))
    })
  )
)
