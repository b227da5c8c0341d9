/**
 * The one behaviour suite every connected MediaStorage adapter must pass: memory, filesystem (a
 * temporary folder) and S3 (against the local fake).
 */
import { expect, type Vitest } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { MediaStorage } from "../../src/MediaStorage.ts"

// Each test uses its own keys: a suite shares one store.
let counter = 0
const uniqueKey = (prefix = "avatars") => `${prefix}/${process.pid}${++counter}/0123456789abcdef0123456789abcdef`

/** Every byte value, newlines and NULs included: nothing may be read as text or a delimiter. */
const allBytes = Uint8Array.from({ length: 512 }, (_, i) => (i * 31) % 256)

const BAD_KEYS = [
  "",
  "../escape",
  "avatars/../../escape",
  "/absolute",
  "avatars//double",
  "avatars/trailing/",
  ".hidden",
  "avatars/.tmp",
  "back\\slash",
  "with space",
  "percent%2Fencoded",
  "a/b/c/d/e/f/g/h/i"
]

export const mediaStorageContract = (it: Vitest.MethodsNonLive<MediaStorage>) => {
  it.effect("is connected", () => Effect.map(MediaStorage, (storage) => expect(storage.connected).toBe(true)))

  it.effect("gives back what was put, byte for byte, with its content type", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const key = uniqueKey()
      yield* storage.put(key, allBytes, "image/png")
      const found = yield* storage.get(key)
      expect(Option.isSome(found)).toBe(true)
      const object = Option.getOrThrow(found)
      expect(object.contentType).toBe("image/png")
      expect(Array.from(object.bytes)).toEqual(Array.from(allBytes))
    })
  )

  it.effect("answers none for a key never put", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      expect(Option.isNone(yield* storage.get(uniqueKey()))).toBe(true)
    })
  )

  it.effect("keeps objects under neighbouring keys apart", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const id = `${process.pid}${++counter}`
      yield* storage.put(`avatars/${id}/a_0000`, Uint8Array.of(1), "image/gif")
      yield* storage.put(`avatars/${id}1/a_0000`, Uint8Array.of(2), "image/webp")
      yield* storage.put(`user-banners/${id}/a_0000`, Uint8Array.of(3), "image/jpeg")
      const read = (key: string) =>
        Effect.map(
          storage.get(key),
          Option.map((o) => [o.contentType, Array.from(o.bytes)] as const)
        )
      expect(yield* read(`avatars/${id}/a_0000`)).toEqual(Option.some(["image/gif", [1]]))
      expect(yield* read(`avatars/${id}1/a_0000`)).toEqual(Option.some(["image/webp", [2]]))
      expect(yield* read(`user-banners/${id}/a_0000`)).toEqual(Option.some(["image/jpeg", [3]]))
    })
  )

  it.effect("a second put of a key replaces the object whole", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const key = uniqueKey()
      yield* storage.put(key, new Uint8Array(1000).fill(1), "image/png")
      yield* storage.put(key, Uint8Array.of(9, 9), "image/gif")
      const object = Option.getOrThrow(yield* storage.get(key))
      expect([object.contentType, Array.from(object.bytes)]).toEqual(["image/gif", [9, 9]])
    })
  )

  it.effect("stores an empty object", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const key = uniqueKey()
      yield* storage.put(key, new Uint8Array(0), "image/png")
      expect(Option.map(yield* storage.get(key), (o) => o.bytes.length)).toEqual(Option.some(0))
    })
  )

  it.effect("what the caller does to its buffer afterwards does not change the stored object", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const key = uniqueKey()
      const bytes = Uint8Array.of(1, 2, 3)
      yield* storage.put(key, bytes, "image/png")
      bytes[0] = 42
      const first = Option.getOrThrow(yield* storage.get(key)).bytes
      first[1] = 42
      expect(Array.from(Option.getOrThrow(yield* storage.get(key)).bytes)).toEqual([1, 2, 3])
    })
  )

  it.effect("remove deletes the object; removing a missing object succeeds", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      const key = uniqueKey()
      yield* storage.put(key, Uint8Array.of(1), "image/png")
      yield* storage.remove(key)
      expect(Option.isNone(yield* storage.get(key))).toBe(true)
      yield* storage.remove(key)
      yield* storage.remove(uniqueKey("never"))
    })
  )

  it.effect("keys outside the rules: get finds nothing, put and remove are defects", () =>
    Effect.gen(function* () {
      const storage = yield* MediaStorage
      for (const key of BAD_KEYS) {
        expect(Option.isNone(yield* storage.get(key))).toBe(true)
        const put = yield* Effect.exit(storage.put(key, Uint8Array.of(1), "image/png"))
        expect(Exit.isFailure(put) && Cause.hasDies(put.cause)).toBe(true)
        const remove = yield* Effect.exit(storage.remove(key))
        expect(Exit.isFailure(remove) && Cause.hasDies(remove.cause)).toBe(true)
      }
    })
  )
}
