/**
 * `GeoIp` over a MaxMind-format (MMDB) country database, read with `mmdb-lib` (the reader under
 * MaxMind's own Node packages).
 *
 * The default data set is `@ip-location-db/geo-whois-asn-country-mmdb` from the npm registry:
 * IPv4 and IPv6, built from providers' geofeeds, the five RIRs' WHOIS data and their ASN data
 * (CC0, with data CC BY 4.0 by the NRO: credit nro.net where the data is shown). It ships in the
 * package, so nothing is downloaded at run time; fresher data comes with a package update. Its
 * author has announced that npm updates will stop and that the current build has data bugs (we
 * saw documentation and private ranges given a country, hence the special-purpose filter), so any
 * MMDB country database can replace it through `databasePath` (e.g. MaxMind's GeoLite2-Country or
 * a newer ip-location-db release): records with `country_code` or `country.iso_code` both work.
 *
 * The file (about 7.5 MiB) is read once, on the first lookup, and kept in memory; lookups walk it
 * in place (a few microseconds each).
 */
import { constants } from "node:fs"
import { access, readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { GeoIp } from "@veche/platform"
import { Config, Effect, Layer, Option, Schema } from "effect"
import { Reader, type Response } from "mmdb-lib"

export const DEFAULT_DATA_SET = "@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb"

/** The database cannot be opened: the layer fails to build rather than answer wrongly later. */
export class GeoIpUnavailable extends Schema.TaggedError<GeoIpUnavailable>()("GeoIpUnavailable", {
  reason: Schema.String
}) {}

export interface Options {
  /** An MMDB country database; default the installed `DEFAULT_DATA_SET`. */
  readonly databasePath?: string | undefined
}

/** Where the installed default data set is. */
export const defaultDatabasePath: Effect.Effect<string, GeoIpUnavailable> = Effect.try({
  try: () => createRequire(import.meta.url).resolve(DEFAULT_DATA_SET),
  catch: () => new GeoIpUnavailable({ reason: `the data set ${DEFAULT_DATA_SET} is not installed` })
})

// ip-location-db writes {country_code}; MaxMind's GeoLite2/GeoIP2-Country write {country: {iso_code}}
// and, for addresses with no located country, only {registered_country: {iso_code}}.
const IsoCode = Schema.Struct({ iso_code: Schema.optionalKey(Schema.String) })
const CountryRecord = Schema.Struct({
  country_code: Schema.optionalKey(Schema.String),
  country: Schema.optionalKey(IsoCode),
  registered_country: Schema.optionalKey(IsoCode)
})
const decodeRecord = Schema.decodeUnknownOption(CountryRecord)

const toCountry = (record: unknown): Option.Option<GeoIp.CountryCode> =>
  Option.flatMap(decodeRecord(record), (r) =>
    Option.fromNullishOr(r.country_code ?? r.country?.iso_code ?? r.registered_country?.iso_code)
  ).pipe(
    Option.map((code) => code.toUpperCase()),
    // "ZZ" is the data sets' "unknown"
    Option.filter((code) => /^[A-Z]{2}$/.test(code) && code !== "ZZ")
  )

export const make = (options?: Options): Effect.Effect<GeoIp.GeoIp["Service"], GeoIpUnavailable> =>
  Effect.gen(function* () {
    const path = options?.databasePath ?? (yield* defaultDatabasePath)
    // Checked now so a wrong path fails at startup; the (larger) read waits for the first lookup.
    yield* Effect.tryPromise({
      try: () => access(path, constants.R_OK),
      catch: () => new GeoIpUnavailable({ reason: `cannot read the GeoIP database at ${path}` })
    })
    const load = Effect.tryPromise({
      try: () => readFile(path),
      catch: () => new GeoIpUnavailable({ reason: `cannot read the GeoIP database at ${path}` })
    }).pipe(
      Effect.flatMap((bytes) =>
        Effect.try({
          try: () => new Reader<Response>(bytes),
          catch: () => new GeoIpUnavailable({ reason: `${path} is not an MMDB database` })
        })
      ),
      Effect.tap(() => Effect.logDebug(`GeoIP database loaded from ${path}`)),
      Effect.withSpan("MmdbGeoIp.load")
    )
    // Once, shared by every lookup, including concurrent first ones. A file that was readable at
    // startup and is broken now is a broken installation: a defect, not "no country" (which would
    // quietly offer Russian clients what the law reserves for others).
    const reader = yield* Effect.cached(Effect.orDie(load))

    // Untraced: one per login and registration (a traced function captures a stack trace on each call).
    const country = Effect.fnUntraced(function* (address: string) {
      const parsed = GeoIp.routable(address)
      if (Option.isNone(parsed)) return Option.none<GeoIp.CountryCode>()
      const db = yield* reader
      // `get` throws only on a malformed address, which `routable` has excluded.
      return toCountry(db.get(parsed.value.address))
    })

    return GeoIp.GeoIp.of({ country })
  })

export const layer = (options?: Options): Layer.Layer<GeoIp.GeoIp, GeoIpUnavailable> =>
  Layer.effect(GeoIp.GeoIp, make(options))

/** `SERVICE_GEOIP_DATABASE`: path to an MMDB country database (default: the installed data set). */
export const layerConfig: Layer.Layer<GeoIp.GeoIp, GeoIpUnavailable | Config.ConfigError> = Layer.unwrap(
  Effect.gen(function* () {
    const databasePath = yield* Config.option(Config.NonEmptyString("SERVICE_GEOIP_DATABASE"))
    return layer({ databasePath: Option.getOrUndefined(databasePath) })
  })
)
