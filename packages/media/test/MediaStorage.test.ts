import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MediaStorage } from "../src/MediaStorage.ts"
import { mediaStorageContract } from "./contracts/MediaStorageContract.ts"

describe("MediaStorage (memory)", () => {
  layer(MediaStorage.layerMemory)((it) => mediaStorageContract(it))
})

describe("MediaStorage.layerNone", () => {
  it.effect("is not connected: put fails with StorageNotConnected, get finds nothing, remove succeeds", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      expect(storage.connected).toBe(false)
      const error = yield* storage.put("avatars/1/abc", Uint8Array.of(1), "image/png").pipe(Effect.flip)
      expect(error._tag).toBe("StorageNotConnected")
      expect(Option.isNone(yield* storage.get("avatars/1/abc"))).toBe(true)
      yield* storage.remove("avatars/1/abc")
    }).pipe(Effect.provide(MediaStorage.layerNone))
  )
})
