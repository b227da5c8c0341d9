import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { GeoIp } from "@veche/platform"
import { Cause, ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import * as MmdbGeoIp from "../src/MmdbGeoIp.ts"

const NOT_PUBLIC = [
  "127.0.0.1",
  "127.8.9.10",
  "::1",
  "10.1.2.3",
  "172.16.0.1",
  "192.168.1.1", // the bundled data set places this one in AU: the special-purpose filter must win
  "100.64.0.1",
  "169.254.1.1",
  "0.0.0.0",
  "255.255.255.255",
  "224.0.0.1",
  "198.51.100.1",
  "2001:db8::1",
  "fe80::1",
  "fe80::1%eth0",
  "fc00::1",
  "::ffff:192.168.1.1"
]

layer(MmdbGeoIp.layer())("MmdbGeoIp on the installed data set", (it) => {
  it.effect("77.88.55.242 (Yandex) is RU; 8.8.8.8 is not", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      expect(yield* geo.country("77.88.55.242")).toEqual(Option.some("RU"))
      const google = yield* geo.country("8.8.8.8")
      expect(Option.isSome(google) && google.value !== "RU").toBe(true)
    })
  )

  it.effect("IPv6 and IPv4-mapped addresses are looked up too", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      expect(yield* geo.country("::ffff:77.88.55.242")).toEqual(Option.some("RU"))
      expect(yield* geo.country("::FFFF:4d58:37f2")).toEqual(Option.some("RU")) // the same, in hex
      expect(yield* geo.country("2a02:6b8::2:242")).toEqual(Option.some("RU"))
      expect(yield* geo.country("[2a02:6b8::2:242]")).toEqual(Option.some("RU"))
    })
  )

  it.effect("loopback, private, link-local, documentation and other special addresses have no country", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      for (const address of NOT_PUBLIC) expect([address, yield* geo.country(address)]).toEqual([address, Option.none()])
    })
  )

  it.effect("malformed input has no country", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      for (const address of ["", "not-an-ip", "1.2.3", "999.1.1.1", "1.2.3.4:80", "::g"]) {
        expect(yield* geo.country(address)).toEqual(Option.none())
      }
    })
  )

  it.effect("concurrent first lookups share one load", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      const results = yield* Effect.forEach(["77.88.55.242", "5.255.255.5", "87.250.250.242"], geo.country, {
        concurrency: "unbounded"
      })
      expect(results).toEqual([Option.some("RU"), Option.some("RU"), Option.some("RU")])
    })
  )
})

describe("MmdbGeoIp", () => {
  it.effect("a database path that cannot be read fails the layer with GeoIpUnavailable", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(MmdbGeoIp.make({ databasePath: "/nonexistent/country.mmdb" }))
      expect(exit).toEqual(
        Exit.fail(
          new MmdbGeoIp.GeoIpUnavailable({ reason: "cannot read the GeoIP database at /nonexistent/country.mmdb" })
        )
      )
    })
  )

  it.effect("a file that is not an MMDB database is a defect on first use, never a quiet 'no country'", () =>
    Effect.gen(function* () {
      const path = join(tmpdir(), `veche-not-mmdb-${process.pid}.mmdb`)
      writeFileSync(path, "not a database")
      const geo = yield* MmdbGeoIp.make({ databasePath: path })
      const exit = yield* Effect.exit(geo.country("77.88.55.242"))
      expect(Exit.isFailure(exit) && Cause.hasDies(exit.cause)).toBe(true)
    })
  )

  it.effect("layerConfig takes SERVICE_GEOIP_DATABASE", () =>
    Effect.gen(function* () {
      const env = ConfigProvider.layer(ConfigProvider.fromEnvRecord({ SERVICE_GEOIP_DATABASE: "/nonexistent/x.mmdb" }))
      const exit = yield* Effect.exit(Layer.build(MmdbGeoIp.layerConfig.pipe(Layer.provide(env))))
      expect(Exit.isFailure(exit)).toBe(true)
    })
  )

  it.effect("layerConfig without SERVICE_GEOIP_DATABASE uses the installed data set", () =>
    Effect.gen(function* () {
      const country = yield* Effect.gen(function* () {
        return yield* (yield* GeoIp.GeoIp).country("77.88.55.242")
      }).pipe(
        Effect.provide(
          MmdbGeoIp.layerConfig.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord({}))))
        )
      )
      expect(country).toEqual(Option.some("RU"))
    })
  )
})
