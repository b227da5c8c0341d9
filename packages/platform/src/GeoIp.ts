/**
 * The port that tells which country a client address is in (ISO 3166-1 alpha-2, upper case), or
 * none: unknown, malformed, or not a public address (loopback, private, link-local, documentation…).
 * E-mail registration is offered only outside Russia, and sessions show a country.
 *
 * Adapters: `GeoIp.layerTest` here (a given table, for tests and demos), `MmdbGeoIp` in
 * `@veche/maxmind` (a real, maintained data set from the npm registry, or any MaxMind-format country
 * database).
 */
import { Context, Effect, Layer, Option } from "effect"
import * as IpAddress from "./internal/IpAddress.ts"

/** `RU`, `US`, … */
export type CountryCode = string

/** An address normalised for a lookup (IPv4-mapped IPv6 as IPv4, no zone index or brackets). */
export type Address = IpAddress.Address

/**
 * The public address a lookup can use, or none (malformed, or special-purpose: private, loopback,
 * documentation…). Every adapter filters through it, since data sets sometimes give such ranges a
 * country.
 */
export const routable: (address: string) => Option.Option<Address> = IpAddress.routable

export class GeoIp extends Context.Service<
  GeoIp,
  { readonly country: (address: string) => Effect.Effect<Option.Option<CountryCode>> }
>()("@veche/platform/GeoIp") {
  /**
   * A fixed table from address to country, needing nothing (tests, demos). Addresses are matched
   * after normalisation (`::ffff:1.2.3.4` is `1.2.3.4`); special-purpose addresses stay none even
   * when listed, as with the real data.
   */
  static readonly layerTest = (table: Readonly<Record<string, CountryCode>>): Layer.Layer<GeoIp> => {
    const entries = new Map<string, CountryCode>()
    for (const [address, country] of Object.entries(table)) {
      const parsed = IpAddress.parse(address)
      if (Option.isSome(parsed)) entries.set(parsed.value.address, country.toUpperCase())
    }
    return Layer.succeed(
      GeoIp,
      GeoIp.of({
        country: (address) =>
          Effect.succeed(
            Option.flatMap(IpAddress.routable(address), (parsed) => Option.fromNullishOr(entries.get(parsed.address)))
          )
      })
    )
  }
}
