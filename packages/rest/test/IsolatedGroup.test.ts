/**
 * `isolated` builds a layer seeing only the services it names: whatever else its host offers stays
 * out of the context it captures (the context HttpApi copies into each request of a group).
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { isolated } from "../src/IsolatedGroup.ts"

class Named extends Context.Service<Named, { readonly value: string }>()("test/Named") {}
class Other extends Context.Service<Other, { readonly value: string }>()("test/Other") {}
class Captured extends Context.Service<Captured, { readonly keys: ReadonlyArray<string> }>()("test/Captured") {}

/** Like a handler group: captures the context it is built in. */
const capturing: Layer.Layer<Captured, never, Named> = Layer.effect(
  Captured,
  Effect.map(Effect.context<Named>(), (context) => ({ keys: [...context.mapUnsafe.keys()] }))
)

const host = Layer.mergeAll(Layer.succeed(Named, { value: "named" }), Layer.succeed(Other, { value: "other" }))

describe("isolated", () => {
  it.effect("captures the named services and nothing else the host offers", () =>
    Effect.gen(function* () {
      const plain = yield* Effect.provide(Effect.service(Captured), capturing.pipe(Layer.provide(host)))
      expect(plain.keys).toContain(Other.key)

      const only = yield* Effect.provide(
        Effect.service(Captured),
        isolated(capturing, [Named]).pipe(Layer.provide(host))
      )
      expect(only.keys).toContain(Named.key)
      expect(only.keys).not.toContain(Other.key)
    })
  )
})
