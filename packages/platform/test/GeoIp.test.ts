import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as GeoIp from "../src/GeoIp.ts"

describe("GeoIp.layerTest", () => {
  it.effect("answers from its table after normalising, and never for special addresses", () =>
    Effect.gen(function* () {
      const geo = yield* GeoIp.GeoIp
      expect(yield* geo.country("5.5.5.5")).toEqual(Option.some("RU"))
      expect(yield* geo.country("::ffff:5.5.5.5")).toEqual(Option.some("RU"))
      expect(yield* geo.country("6.6.6.6")).toEqual(Option.none())
      expect(yield* geo.country("127.0.0.1")).toEqual(Option.none())
    }).pipe(Effect.provide(GeoIp.GeoIp.layerTest({ "5.5.5.5": "ru", "127.0.0.1": "RU" })))
  )
})
