/** @veche/maxmind: the `GeoIp` port over a MaxMind-format (MMDB) country database. */
export * as MmdbGeoIp from "./MmdbGeoIp.ts"
