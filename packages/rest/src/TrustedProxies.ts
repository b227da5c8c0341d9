/**
 * Which TCP peers may tell us the client's address in X-Forwarded-For (`SERVICE_TRUSTED_PROXIES`,
 * comma-separated CIDRs; default loopback). Anyone else's header is ignored, so a client cannot
 * pick its own address for rate limits, country checks or session records.
 */
import { Config, Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import { IpNetwork } from "effect/net"

export const DEFAULT = "127.0.0.0/8,::1/128"

/** "10.0.0.0/8, ::1/128" → networks; an empty string trusts nobody. */
export const NetworkList = Schema.String.pipe(
  Schema.decodeTo(
    Schema.Array(Schema.declare(IpNetwork.isIpNetwork)),
    SchemaTransformation.transformEffect({
      decode: (text: string): Effect.Effect<ReadonlyArray<IpNetwork.IpNetwork>, SchemaIssue.Issue> => {
        const networks: Array<IpNetwork.IpNetwork> = []
        for (const part of text.split(",").map((s) => s.trim())) {
          if (part === "") continue
          const parsed = IpNetwork.fromString(part.includes("/") ? part : `${part}/${part.includes(":") ? 128 : 32}`)
          if (Result.isFailure(parsed)) {
            return Effect.fail(new SchemaIssue.InvalidValue({ message: `not an address or CIDR: ${part}` }, text))
          }
          networks.push(parsed.success)
        }
        return Effect.succeed(networks)
      },
      encode: (networks) => Effect.succeed(networks.map(String).join(","))
    })
  )
)

const DEFAULT_NETWORKS = Schema.decodeSync(NetworkList)(DEFAULT)

/** `SERVICE_TRUSTED_PROXIES`, default loopback. */
export const config: Config.Config<ReadonlyArray<IpNetwork.IpNetwork>> = Config.schema(
  NetworkList,
  "SERVICE_TRUSTED_PROXIES"
).pipe(Config.withDefault(DEFAULT_NETWORKS))
