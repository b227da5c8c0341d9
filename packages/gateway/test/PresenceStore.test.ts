/** The PresenceStore contract on the memory adapter (one process: both "nodes" are the same store). */
import { describe } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { PresenceStore } from "../src/PresenceStore.ts"
import { presenceStoreContract } from "./PresenceStoreContract.ts"

describe("PresenceStore.layerMemory", () => {
  presenceStoreContract(() =>
    Effect.map(Layer.build(PresenceStore.layerMemory), (context) => {
      const store = Context.get(context, PresenceStore)
      return [store, store] as const
    })
  )
})
