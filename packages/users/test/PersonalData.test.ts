/**
 * The PersonalData registry: parts come back by level whatever order their layers registered
 * them in (export order; erasure runs it backwards), and a part registered again replaces itself.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as PersonalData from "../src/PersonalData.ts"

const part = (name: string, level: number): PersonalData.Part => ({
  name,
  level,
  export: () => Effect.succeed([]),
  erase: () => Effect.void
})

describe("PersonalData", () => {
  it.effect("answers the registered parts by level, lowest first, whatever their layers' order", () =>
    Effect.gen(function* () {
      const registry = yield* PersonalData.PersonalData
      expect((yield* registry.parts).map((p) => p.name)).toEqual(["users", "auth", "guilds"])
      yield* registry.register(part("auth", PersonalData.AUTH))
      expect((yield* registry.parts).map((p) => p.name)).toEqual(["users", "auth", "guilds"])
    }).pipe(
      Effect.provide(
        Layer.mergeAll(
          PersonalData.register(Effect.succeed(part("guilds", PersonalData.GUILDS))),
          PersonalData.register(Effect.succeed(part("users", PersonalData.USERS))),
          PersonalData.register(Effect.succeed(part("auth", PersonalData.AUTH)))
        ).pipe(Layer.provideMerge(PersonalData.PersonalData.layer))
      )
    )
  )
})
